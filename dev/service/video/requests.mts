/**
 * The submits of the three video shapes, read and checked (a 400 names the field at fault): OpenAI's `POST
 * /v1/videos` (JSON, or multipart with the image as the file part `input_reference`), OpenRouter's `POST
 * /v1/videos` (JSON, images as `frame_images` data URLs) and new-api's `POST /v1/video/generations` (JSON, the
 * image as a data URL). An image must be PNG, JPEG or WEBP, labelled with the type its bytes are.
 */
import {
	endpointBody,
	nonEmptyString,
	optionalChoice,
	optionalNumber,
	rejectUnknownFields,
} from '../body-fields.mts';
import { readDataUri } from '../data-uri.mts';
import { invalidRequest } from '../errors.mts';
import { formRequest } from '../form-fields.mts';
import { described } from '../images/draw.mts';
import { readImageHeader } from '../images/image-header.mts';
import { describe, isObject } from '../json-value.mts';
import { headerKnobs } from '../knob-header.mts';
import { parseMultipart } from '../multipart.mts';
import { parseVideoKnobs, type VideoKnobs } from './knobs.mts';

export interface VideoSubmit {
	model: string;
	prompt: string;
	seconds: number;
	/** OpenAI's `seconds` as sent (a string). */
	secondsText?: string;
	size?: string;
	/** What arrived, for the video's `free` box: the fields sent (as text) and each image described. */
	facts: Record<string, string>;
	knobs: VideoKnobs;
}

const MAX_SECONDS = 60;
const MAX_SIDE = 4096;
const PROMPT_KEPT = 200;
const IMAGE_TYPES: Record<string, string> = {
	PNG: 'image/png',
	JPEG: 'image/jpeg',
	WEBP: 'image/webp',
};

/** `size`: `<width>x<height>`, each side 1 to 4096. */
function checkSize(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const match = typeof value === 'string' ? /^(\d+)x(\d+)$/.exec(value) : null;
	const fits = (side: string | undefined) => Number(side) >= 1 && Number(side) <= MAX_SIDE;
	if (match === null || !fits(match[1]) || !fits(match[2])) {
		throw invalidRequest(
			`'size' must be '<width>x<height>' with each side from 1 to ${MAX_SIDE}, got ${describe(value)}`,
			'size',
			'invalid_value',
		);
	}
	return value as string;
}

/** The facts every shape keeps: the prompt (its first 200 characters), the model, the length. */
function baseFacts(model: string, prompt: string, seconds: number): Record<string, string> {
	return { model, prompt: prompt.slice(0, PROMPT_KEPT), seconds: String(seconds) };
}

/** An image's bytes, described for the facts: PNG, JPEG or WEBP, labelled `label` (its type, as sent) as they are. */
function labelledImage(bytes: Buffer, label: string | undefined, at: string): string {
	const info = readImageHeader(bytes);
	const type = info === undefined ? undefined : IMAGE_TYPES[info.format];
	if (info === undefined || type === undefined || type !== label) {
		throw invalidRequest(
			`'${at}' must be a PNG, JPEG or WEBP image labelled with its own type; got the type ${label || 'none'} and ${info === undefined ? 'bytes that are no image' : `a ${info.format} image`}`,
			at,
			'invalid_image',
		);
	}
	return described(info, bytes);
}

/** An image sent as a data URL (`data:image/png;base64,...`). */
function dataUrlImage(value: unknown, at: string): string {
	if (typeof value !== 'string' || !value.startsWith('data:')) {
		throw invalidRequest(
			`'${at}' must be a data URL (data:image/png;base64,...), got ${describe(value)}: the local service fetches no images`,
			at,
			'invalid_image',
		);
	}
	const read = readDataUri(value);
	if ('problem' in read) throw invalidRequest(`'${at}': ${read.problem}`, at, 'invalid_image');
	return labelledImage(read.bytes, read.mediaType, at);
}

/** OpenAI's `seconds`: a string of a whole number (OpenAI refuses a number), default "4". */
function openAiSeconds(value: unknown): string {
	if (value === undefined || value === null) return '4';
	if (typeof value !== 'string' || !/^\d+$/.test(value) || !(Number(value) >= 1)) {
		throw invalidRequest(
			`'seconds' must be a string of whole seconds from 1 to ${MAX_SECONDS}, such as "8"; got ${describe(value)}`,
			'seconds',
			typeof value === 'string' ? 'invalid_value' : 'invalid_type',
		);
	}
	if (Number(value) > MAX_SECONDS) {
		throw invalidRequest(
			`'seconds' must be at most "${MAX_SECONDS}", got "${value}"`,
			'seconds',
			'invalid_value',
		);
	}
	return value;
}

function openAiSubmit(
	model: string,
	field: (name: string) => unknown,
	knobs: VideoKnobs,
	image?: string,
): VideoSubmit {
	const prompt = nonEmptyString(field('prompt'), 'prompt');
	const secondsText = openAiSeconds(field('seconds'));
	const size = checkSize(field('size')) ?? '720x1280';
	const seconds = Number(secondsText);
	const facts = {
		...baseFacts(model, prompt, seconds),
		size,
		...(image === undefined ? {} : { input_reference: image }),
	};
	return { model, prompt, seconds, secondsText, size, facts, knobs };
}

/** OpenAI's submit: JSON `{model, prompt, seconds?, size?}`, or the same as multipart with `input_reference`. */
export function parseOpenAiSubmit(
	contentType: string | undefined,
	body: Buffer,
	rawBody: string,
	knobHeader: string | string[] | undefined,
): VideoSubmit {
	if (!(contentType ?? '').toLowerCase().startsWith('multipart/')) {
		const {
			body: fields,
			knobs,
			model,
		} = endpointBody(rawBody, ['prompt', 'seconds', 'size'], parseVideoKnobs);
		return openAiSubmit(model, (name) => fields[name], knobs);
	}
	const fromHeader = headerKnobs(knobHeader);
	const form = formRequest(
		parseMultipart(contentType, body),
		{ text: ['prompt', 'seconds', 'size'], files: ['input_reference'] },
		(value) => parseVideoKnobs(value ?? fromHeader),
	);
	if (form.files.length > 1) {
		throw invalidRequest(
			"'input_reference' was sent more than once",
			'input_reference',
			'invalid_value',
		);
	}
	const [file] = form.files;
	const image =
		file === undefined ? undefined : labelledImage(file.data, file.contentType, 'input_reference');
	return openAiSubmit(form.model, (name) => form.text.get(name), form.knobs, image);
}

const RESOLUTIONS = ['480p', '720p', '1080p', '4k'] as const;
const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'] as const;
const FRAME_TYPES = ['first_frame', 'last_frame'] as const;

/** OpenRouter's `frame_images`: at most one of each frame type, `{type: "image_url", image_url: {url}, frame_type}`. */
function frameImages(value: unknown): Record<string, string> {
	if (value === undefined || value === null) return {};
	if (!Array.isArray(value) || value.length > FRAME_TYPES.length) {
		throw invalidRequest(
			`'frame_images' must be an array of at most ${FRAME_TYPES.length} images, got ${describe(value)}`,
			'frame_images',
			'invalid_value',
		);
	}
	const facts: Record<string, string> = {};
	value.forEach((frame: unknown, index) => {
		const at = `frame_images[${index}]`;
		if (!isObject(frame) || frame.type !== 'image_url' || !isObject(frame.image_url)) {
			throw invalidRequest(
				`'${at}' must be {"type": "image_url", "image_url": {"url": "<data URL>"}, "frame_type": "first_frame"}`,
				at,
				'invalid_value',
			);
		}
		rejectUnknownFields(Object.keys(frame), ['type', 'image_url', 'frame_type']);
		const frameType = optionalChoice(frame.frame_type, `${at}.frame_type`, FRAME_TYPES);
		if (frameType === undefined) {
			throw invalidRequest(
				`'${at}.frame_type' is required`,
				`${at}.frame_type`,
				'missing_required_parameter',
			);
		}
		if (facts[frameType] !== undefined) {
			throw invalidRequest(`'${at}': a second ${frameType}`, `${at}.frame_type`, 'invalid_value');
		}
		facts[frameType] = dataUrlImage(frame.image_url.url, `${at}.image_url.url`);
	});
	return facts;
}

/** OpenRouter's submit: JSON `{model, prompt, duration?, resolution?, aspect_ratio?, size?, seed?, generate_audio?, frame_images?}`. */
export function parseOpenRouterSubmit(rawBody: string): VideoSubmit {
	const { body, knobs, model } = endpointBody(
		rawBody,
		[
			'prompt',
			'duration',
			'resolution',
			'aspect_ratio',
			'size',
			'seed',
			'generate_audio',
			'frame_images',
		],
		parseVideoKnobs,
	);
	const prompt = nonEmptyString(body.prompt, 'prompt');
	const seconds = optionalNumber(body.duration, 'duration', 1, MAX_SECONDS, true) ?? 5;
	const size = checkSize(body.size);
	const resolution = optionalChoice(body.resolution, 'resolution', RESOLUTIONS);
	const aspectRatio = optionalChoice(body.aspect_ratio, 'aspect_ratio', ASPECT_RATIOS);
	const seed = optionalNumber(body.seed, 'seed', 0, 2 ** 32 - 1, true);
	if (body.generate_audio !== undefined && typeof body.generate_audio !== 'boolean') {
		throw invalidRequest(
			`'generate_audio' must be a boolean, got ${describe(body.generate_audio)}`,
			'generate_audio',
			'invalid_type',
		);
	}
	const given = (name: string, value: unknown) =>
		value === undefined ? {} : { [name]: String(value) };
	const facts = {
		...baseFacts(model, prompt, seconds),
		...given('size', size),
		...given('resolution', resolution),
		...given('aspect_ratio', aspectRatio),
		...given('seed', seed),
		...given('generate_audio', body.generate_audio),
		...frameImages(body.frame_images),
	};
	return { model, prompt, seconds, ...(size === undefined ? {} : { size }), facts, knobs };
}

/** new-api's submit: JSON `{model, prompt, duration?, width?, height?, image?, seed?, metadata?}`. */
export function parseNewApiSubmit(rawBody: string): VideoSubmit {
	const { body, knobs, model } = endpointBody(
		rawBody,
		['prompt', 'duration', 'width', 'height', 'image', 'seed', 'metadata'],
		parseVideoKnobs,
	);
	const prompt = nonEmptyString(body.prompt, 'prompt');
	const seconds = optionalNumber(body.duration, 'duration', 1, MAX_SECONDS) ?? 5;
	const width = optionalNumber(body.width, 'width', 1, MAX_SIDE, true);
	const height = optionalNumber(body.height, 'height', 1, MAX_SIDE, true);
	if ((width === undefined) !== (height === undefined)) {
		const missing = width === undefined ? 'width' : 'height';
		throw invalidRequest(
			`'width' and 'height' go together: '${missing}' is missing`,
			missing,
			'missing_required_parameter',
		);
	}
	optionalNumber(body.seed, 'seed', 0, 2 ** 32 - 1, true);
	if (body.metadata !== undefined && !isObject(body.metadata)) {
		throw invalidRequest("'metadata' must be an object", 'metadata', 'invalid_type');
	}
	const size = width === undefined ? undefined : `${width}x${height}`;
	const facts = {
		...baseFacts(model, prompt, seconds),
		...(size === undefined ? {} : { size }),
		...(body.image === undefined ? {} : { image: dataUrlImage(body.image, 'image') }),
	};
	return { model, prompt, seconds, ...(size === undefined ? {} : { size }), facts, knobs };
}
