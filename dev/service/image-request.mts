/**
 * Validation of the image endpoints' requests: POST /v1/images/generations (JSON) and /v1/images/edits
 * (multipart: one or more `image` or `image[]` files in order, an optional `mask`), with the fields both share.
 */
import { endpointBody, nonEmptyString, optionalChoice, optionalNumber } from './body-fields.mts';
import { invalidRequest } from './errors.mts';
import { formRequest, formValue } from './form-fields.mts';
import { readImageHeader, type ImageInfo } from './images/image-header.mts';
import { OUTPUT_FORMATS, SCALE, type OutputFormat } from './images/draw.mts';
import { parseImageKnobs, type ImageKnobs } from './media-knobs.mts';
import { parseMultipart, type FormPart } from './multipart.mts';

export const RESPONSE_FORMATS = ['b64_json', 'url'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

export interface ImageRequest {
	model: string;
	prompt: string;
	n: number;
	width: number;
	height: number;
	responseFormat: ResponseFormat;
	outputFormat: OutputFormat;
	knobs: ImageKnobs;
}

/** An image that arrived with an edit: its header, its bytes, and how the request named it (`image[1]`). */
export interface InputImage {
	at: string;
	info: ImageInfo;
	bytes: Buffer;
}

export interface EditRequest extends ImageRequest {
	images: InputImage[];
	mask?: InputImage;
}

/** The largest size side the models draw, and at most this many images a request. */
const MAX_SIDE = 4096;
const MAX_N = 10;
const MAX_INPUT_IMAGES = 16;

/** The fields both endpoints read besides the prompt and the images, as OpenAI's image API names them. */
const SHARED_FIELDS = [
	'n',
	'size',
	'quality',
	'response_format',
	'output_format',
	'background',
	'user',
];
const QUALITIES = ['auto', 'high', 'medium', 'low', 'hd', 'standard'] as const;
const BACKGROUNDS = ['auto', 'transparent', 'opaque'] as const;

/** `size`: `auto` (1024x1024) or `<width>x<height>`, each side a multiple of 64 up to 4096. */
function parseSize(value: unknown): { width: number; height: number } {
	if (value === undefined || value === null || value === 'auto')
		return { width: 1024, height: 1024 };
	const match = typeof value === 'string' ? /^(\d+)x(\d+)$/.exec(value) : null;
	const [width, height] = [Number(match?.[1]), Number(match?.[2])];
	const fits = (side: number) => side >= SCALE && side <= MAX_SIDE && side % SCALE === 0;
	if (match === null || !fits(width) || !fits(height)) {
		throw invalidRequest(
			`'size' must be 'auto' or '<width>x<height>' with each side a multiple of ${SCALE} up to ${MAX_SIDE}, got ${JSON.stringify(value)}`,
			'size',
			'invalid_value',
		);
	}
	return { width, height };
}

/** The fields both endpoints share, from a JSON body or a form's text (numbers given as text). */
function imageFields(
	model: string,
	value: (field: string) => unknown,
	knobs: ImageKnobs,
): ImageRequest {
	optionalChoice(value('quality'), 'quality', QUALITIES);
	optionalChoice(value('background'), 'background', BACKGROUNDS);
	const user = value('user');
	if (user !== undefined && typeof user !== 'string') {
		throw invalidRequest("'user' must be a string", 'user', 'invalid_type');
	}
	return {
		model,
		prompt: nonEmptyString(value('prompt'), 'prompt'),
		n: optionalNumber(value('n'), 'n', 1, MAX_N, true) ?? 1,
		...parseSize(value('size')),
		responseFormat:
			optionalChoice(value('response_format'), 'response_format', RESPONSE_FORMATS) ?? 'b64_json',
		outputFormat: optionalChoice(value('output_format'), 'output_format', OUTPUT_FORMATS) ?? 'png',
		knobs,
	};
}

/** Parses and validates the JSON body of POST /images/generations; a 400 names the field at fault. */
export function parseGenerationRequest(rawBody: string): ImageRequest {
	const { body, knobs, model } = endpointBody(
		rawBody,
		['prompt', 'style', 'moderation', 'output_compression', ...SHARED_FIELDS],
		parseImageKnobs,
	);
	optionalChoice(body.style, 'style', ['vivid', 'natural']);
	optionalChoice(body.moderation, 'moderation', ['auto', 'low']);
	optionalNumber(body.output_compression, 'output_compression', 0, 100, true);
	return imageFields(model, (field) => body[field], knobs);
}

/** An uploaded image: PNG, JPEG or WEBP by its part's type and by its bytes; `png` when only a PNG will do (a mask). */
export function inputImage(part: FormPart, at: string, pngOnly = false): InputImage {
	const types = pngOnly ? ['image/png'] : ['image/png', 'image/jpeg', 'image/webp'];
	const formats = pngOnly ? ['PNG'] : ['PNG', 'JPEG', 'WEBP'];
	const info = readImageHeader(part.data);
	if (
		!types.includes(part.contentType ?? '') ||
		info === undefined ||
		!formats.includes(info.format)
	) {
		throw invalidRequest(
			`Invalid file '${at}': it must be ${pngOnly ? 'a PNG image' : 'a PNG, JPEG or WEBP image'} sent with its type (${types.join(', ')}); got the type ${part.contentType ?? 'none'} and ${info === undefined ? 'bytes that are no image' : `a ${info.format} image`}`,
			at,
			'invalid_image',
		);
	}
	return { at, info, bytes: part.data };
}

/** The images of an edit, in the order sent: all as `image` or all as `image[]`, 1 to 16 of them. */
function inputImages(files: readonly FormPart[]): InputImage[] {
	const parts = files.filter((part) => part.name !== 'mask');
	const names = new Set(parts.map((part) => part.name));
	if (names.size > 1) {
		throw invalidRequest(
			"Send the images as 'image' or as 'image[]', not both",
			'image',
			'invalid_value',
		);
	}
	if (parts.length === 0 || parts.length > MAX_INPUT_IMAGES) {
		throw invalidRequest(
			`'image' must hold 1 to ${MAX_INPUT_IMAGES} images, got ${parts.length}`,
			'image',
			parts.length === 0 ? 'missing_required_parameter' : 'invalid_value',
		);
	}
	return parts.map((part, index) => inputImage(part, `${part.name.replace('[]', '')}[${index}]`));
}

/** Parses and validates the multipart body of POST /images/edits; a 400 names the part or field at fault. */
export function parseEditRequest(contentType: string | undefined, body: Buffer): EditRequest {
	const form = formRequest(
		parseMultipart(contentType, body),
		{ text: ['prompt', 'input_fidelity', ...SHARED_FIELDS], files: ['image', 'image[]', 'mask'] },
		parseImageKnobs,
	);
	optionalChoice(form.text.get('input_fidelity'), 'input_fidelity', ['high', 'low']);
	const request = imageFields(form.model, (field) => formValue(form.text, field), form.knobs);
	const images = inputImages(form.files);
	const masks = form.files.filter((part) => part.name === 'mask');
	if (masks.length > 1)
		throw invalidRequest("'mask' was sent more than once", 'mask', 'invalid_value');
	const mask = masks.length === 0 ? undefined : inputImage(masks[0], 'mask', true);
	const [first] = images;
	if (
		mask !== undefined &&
		(mask.info.width !== first.info.width || mask.info.height !== first.info.height)
	) {
		throw invalidRequest(
			`'mask' must have the size of the first image (${first.info.width}x${first.info.height}), got ${mask.info.width}x${mask.info.height}`,
			'mask',
			'invalid_value',
		);
	}
	// Without a size the answer has the first image's (drawn pixel for pixel): what the edit was made from.
	const sized = ![undefined, 'auto'].includes(form.text.get('size'));
	const own = { width: first.info.width * SCALE, height: first.info.height * SCALE };
	return { ...request, ...(sized ? {} : own), images, ...(mask === undefined ? {} : { mask }) };
}
