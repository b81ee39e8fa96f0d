import type { FormPart, MediaFile } from './multipart';
import { sniffAudio, sniffImage } from './sniff';
import { InputError } from '../failures/errors';
import type { MediaPath } from '../failures/errors';
import type { EndpointRequest } from '../request/endpoint';
import { endpointRequest } from '../request/endpoint';
import { describe, megabytes, numberInRange, wholeNumber } from '../values';

/**
 * The requests of the image and audio endpoints, from the values a node read for one item: JSON bodies for
 * generations and speech, the parts of a multipart body for edits, transcriptions and translations. Values are
 * checked before anything is sent; an option that is not set is not sent.
 */

/** What the media node does, and the endpoint each operation calls (a path under the Base URL). */
export const MEDIA_PATHS = {
	generate: 'images/generations',
	edit: 'images/edits',
	transcribe: 'audio/transcriptions',
	translate: 'audio/translations',
	speak: 'audio/speech',
} as const satisfies Record<string, MediaPath>;

export type MediaOperation = keyof typeof MEDIA_PATHS;

/** How messages name the node's fields (issue 49's labels). */
export const MEDIA_FIELDS = {
	prompt: 'Prompt',
	input: 'Text Input',
	voice: 'Voice',
	binaryPropertyName: 'Input Binary Field',
	n: 'Options > Number of Images',
	size: 'Options > Size',
	quality: 'Options > Quality',
	responseFormat: 'Options > Response Format',
	mask: 'Options > Mask',
	language: 'Options > Language',
	transcriptionPrompt: 'Options > Prompt',
	temperature: 'Options > Temperature',
	speed: 'Options > Speed',
} as const;

/** The fields each operation sets itself, with who sets them: Extra Body may not set them. */
const RESERVED: Record<MediaOperation, Record<string, string>> = {
	generate: {
		model: 'the Model field sets',
		prompt: 'the Prompt field sets',
		n: 'Options > Number of Images sets',
		size: 'Options > Size sets',
		quality: 'Options > Quality sets',
		response_format: 'Options > Response Format sets',
	},
	edit: {
		model: 'the Model field sets',
		prompt: 'the Prompt field sets',
		image: 'the Input Binary Field sets',
		'image[]': 'the Input Binary Field sets',
		mask: 'Options > Mask sets',
		n: 'Options > Number of Images sets',
		size: 'Options > Size sets',
	},
	transcribe: {
		model: 'the Model field sets',
		file: 'the Input Binary Field sets',
		language: 'Options > Language sets',
		prompt: 'Options > Prompt sets',
		response_format: 'Options > Response Format sets',
		temperature: 'Options > Temperature sets',
	},
	translate: {
		model: 'the Model field sets',
		file: 'the Input Binary Field sets',
		prompt: 'Options > Prompt sets',
		response_format: 'Options > Response Format sets',
		temperature: 'Options > Temperature sets',
	},
	speak: {
		model: 'the Model field sets',
		input: 'the Text Input field sets',
		voice: 'the Voice field sets',
		response_format: 'Options > Response Format sets',
		speed: 'Options > Speed sets',
	},
};

/** Checks the Model and the Options (Timeout, retries, Extra Body) of one operation before anything is sent. */
export function mediaRequest(
	operation: MediaOperation,
	model: unknown,
	options: Record<string, unknown>,
): EndpointRequest {
	return endpointRequest(model, options, RESERVED[operation]);
}

/** What every body is built around: the model and Extra Body. */
type Around = Pick<EndpointRequest, 'model' | 'fields'>;

/** Whether a field is unset: nothing, null or empty text (an expression that gave nothing). */
const unset = (value: unknown): boolean => value === undefined || value === null || value === '';

/** A text the service needs, non-empty; else the field's error with `fix`. */
function requiredText(value: unknown, field: string, fix: string): string {
	if (typeof value === 'string' && value.trim() !== '') return value;
	const problem = typeof value === 'string' ? 'is empty' : `must be text, got ${describe(value)}`;
	throw new InputError(field, problem, fix);
}

/** An optional text: undefined when unset or empty, else the text (anything else is the field's error). */
function optionalText(value: unknown, field: string): string | undefined {
	if (unset(value)) return undefined;
	if (typeof value === 'string') return value;
	throw new InputError(
		field,
		`must be text, got ${describe(value)}`,
		`Type the value in ${field}.`,
	);
}

/** The fields that are set, without the unset ones. */
function setFields(fields: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export interface GenerationInput {
	prompt: unknown;
	n?: unknown;
	size?: unknown;
	quality?: unknown;
	responseFormat?: unknown;
}

const IMAGE_RESPONSE_FORMATS = ['b64_json', 'url'];

/** The image the node wants back: `b64_json` unless the user chose `url`. */
function imageResponseFormat(value: unknown): string {
	const format = optionalText(value, MEDIA_FIELDS.responseFormat) ?? 'b64_json';
	if (IMAGE_RESPONSE_FORMATS.includes(format)) return format;
	throw new InputError(
		MEDIA_FIELDS.responseFormat,
		`has the unknown value ${describe(format)}`,
		'Choose Base64 JSON (b64_json) or URL (url); an expression gives one of these values.',
	);
}

/** Number of Images: a whole number from 1 to 10 (1 when unset). */
function imageCount(value: unknown): number {
	if (unset(value)) return 1;
	return wholeNumber(value, MEDIA_FIELDS.n, 1, 'Use a whole number from 1 to 10, e.g. 2.', 10);
}

const PROMPT_FIX = 'Describe the image to make, e.g. "A watercolour fox in the snow".';

/** POST /images/generations: `{model, prompt, n, size?, quality?, response_format}`. */
export function generationBody(request: Around, input: GenerationInput): Record<string, unknown> {
	return {
		...request.fields,
		...setFields({
			model: request.model,
			prompt: requiredText(input.prompt, MEDIA_FIELDS.prompt, PROMPT_FIX),
			n: imageCount(input.n),
			size: optionalText(input.size, MEDIA_FIELDS.size),
			quality: optionalText(input.quality, MEDIA_FIELDS.quality),
			response_format: imageResponseFormat(input.responseFormat),
		}),
	};
}

/**
 * The parts of a multipart body from its text fields (Extra Body first, objects as JSON text, the node's own
 * fields over them) and its files, in order.
 */
function formParts(
	request: Around,
	own: Record<string, unknown>,
	files: ReadonlyArray<{ name: string; file: MediaFile }>,
): FormPart[] {
	const text = { ...request.fields, ...setFields({ model: request.model, ...own }) };
	return [
		...Object.entries(text).map(([name, value]) => ({
			name,
			value: typeof value === 'string' ? value : JSON.stringify(value),
		})),
		...files,
	];
}

export interface EditInput {
	prompt: unknown;
	/** The images to edit, in the order the user named them. */
	images: readonly MediaFile[];
	mask?: MediaFile;
	n?: unknown;
	size?: unknown;
}

/** POST /images/edits: `image` (several: `image[]`, in order), `mask`, `prompt`, `model`, `n?`, `size?`. */
export function editParts(request: Around, input: EditInput): FormPart[] {
	const name = input.images.length === 1 ? 'image' : 'image[]';
	const n = unset(input.n) ? undefined : imageCount(input.n);
	return formParts(
		request,
		{
			prompt: requiredText(
				input.prompt,
				MEDIA_FIELDS.prompt,
				'Describe the change, e.g. "Add a red hat".',
			),
			n,
			size: optionalText(input.size, MEDIA_FIELDS.size),
		},
		[
			...input.images.map((file) => ({ name, file })),
			...(input.mask === undefined ? [] : [{ name: 'mask', file: input.mask }]),
		],
	);
}

/** OpenAI's limit on a recording, which gateways keep: 25 MB (MiB). */
export const MAX_RECORDING_BYTES = 25 * 1024 * 1024;

/**
 * A recording over the services' limit is refused before anything is sent (`source` names it, e.g. `binary
 * property "data" (talk.mp3)`); `size` in bytes, known before the bytes are read when n8n stored them.
 */
export function checkRecordingSize(size: number, source: string): void {
	if (size <= MAX_RECORDING_BYTES) return;
	throw new InputError(
		MEDIA_FIELDS.binaryPropertyName,
		`${source} is ${megabytes(size)}, above the limit of ${megabytes(MAX_RECORDING_BYTES)} a transcription service takes`,
		'Send a shorter recording, or a smaller one: MP3 at 64 kbit/s holds about 50 minutes in 25 MB (e.g. convert it with ffmpeg -i in.wav -b:a 64k out.mp3). Split longer recordings into parts.',
	);
}

export interface TranscriptionInput {
	file: MediaFile;
	/** Transcriptions only: the recording's language, an ISO-639-1 code such as `en`. */
	language?: unknown;
	prompt?: unknown;
	responseFormat?: unknown;
	temperature?: unknown;
}

/** POST /audio/transcriptions and /audio/translations: `file`, `model`, `language?`, `prompt?`, `response_format?`, `temperature?`. */
export function transcriptionParts(request: Around, input: TranscriptionInput): FormPart[] {
	checkRecordingSize(input.file.bytes.length, `the recording ${input.file.fileName}`);
	const temperature = unset(input.temperature)
		? undefined
		: numberInRange(
				input.temperature,
				MEDIA_FIELDS.temperature,
				0,
				1,
				'Use a number from 0 to 1, e.g. 0.2.',
			);
	return formParts(
		request,
		{
			language: optionalText(input.language, MEDIA_FIELDS.language),
			prompt: optionalText(input.prompt, MEDIA_FIELDS.transcriptionPrompt),
			response_format: optionalText(input.responseFormat, MEDIA_FIELDS.responseFormat),
			temperature: temperature === undefined ? undefined : String(temperature),
		},
		[{ name: 'file', file: input.file }],
	);
}

export interface SpeechInput {
	input: unknown;
	voice: unknown;
	responseFormat?: unknown;
	speed?: unknown;
}

/** POST /audio/speech: `{model, input, voice, response_format?, speed?}`. */
export function speechBody(request: Around, input: SpeechInput): Record<string, unknown> {
	const speed = unset(input.speed)
		? undefined
		: numberInRange(
				input.speed,
				MEDIA_FIELDS.speed,
				0.25,
				4,
				'Use a number from 0.25 to 4; 1 is normal speed.',
			);
	return {
		...request.fields,
		...setFields({
			model: request.model,
			input: requiredText(input.input, MEDIA_FIELDS.input, 'Give the text to speak.'),
			voice: requiredText(
				input.voice,
				MEDIA_FIELDS.voice,
				"Name one of the model's voices, e.g. alloy (OpenAI) or af_heart (Kokoro): voices depend on the model.",
			),
			response_format: optionalText(input.responseFormat, MEDIA_FIELDS.responseFormat),
			speed,
		}),
	};
}

/** A file as the item holds it: bytes, and the name and type n8n knows (either may be missing or wrong). */
export interface ItemFile {
	bytes: Uint8Array;
	fileName?: string;
	mimeType?: string;
}

/** Extensions that name the same kind of file as the one sniffed: a name with one of them keeps it. */
const SAME_KIND: Record<string, readonly string[]> = {
	jpeg: ['jpg', 'jpe'],
	mp3: ['mpga', 'mpeg'],
	ogg: ['oga'],
};

/** `fileName` ending in `extension` (or an extension of the same kind it has); `fallback` when it has no name. */
function withExtension(fileName: string | undefined, fallback: string, extension: string): string {
	const name = (fileName ?? '').trim();
	const match = /^(.*)\.([A-Za-z0-9]{1,5})$/.exec(name);
	const own = match?.[2].toLowerCase();
	if (own === extension || (own !== undefined && SAME_KIND[extension]?.includes(own))) return name;
	return `${(match ? match[1] : name) || fallback}.${extension}`;
}

/**
 * An image to upload for an edit, named and typed by its bytes (PNG, JPEG, GIF or WebP): services read the type
 * and the extension, which an item from a webhook or an HTTP Request node often lacks. `source` names the file
 * in the error for anything else.
 */
export function imageUpload(file: ItemFile, source: string, field: string): MediaFile {
	const type = sniffImage(file.bytes);
	if (type === undefined) {
		throw new InputError(
			field,
			`${source} is not a PNG, JPEG, GIF or WebP image (checked the bytes, not only the name)`,
			'Pass an image file; convert other formats to PNG first (e.g. with the Edit Image node).',
		);
	}
	return {
		bytes: file.bytes,
		fileName: withExtension(file.fileName, 'image', type.extension),
		mimeType: type.mimeType,
	};
}

/**
 * A recording to upload, named and typed by its bytes when they say what they are (MP3, WAV, Ogg, FLAC, AAC,
 * M4A/MP4, WebM): transcription services refuse a file name without a known extension. A name whose extension
 * already says the kind keeps it (`talk.mpga`, `note.oga`); bytes of no known kind keep the item's name and type.
 */
export function recordingUpload(file: ItemFile): MediaFile {
	const type = sniffAudio(file.bytes);
	if (type === undefined) {
		return {
			bytes: file.bytes,
			fileName: file.fileName ?? 'recording',
			mimeType: file.mimeType ?? 'application/octet-stream',
		};
	}
	// OpenAI's list of extensions has no .opus: an Ogg Opus recording goes as .ogg, which every service reads.
	const extension = type.extension === 'opus' ? 'ogg' : type.extension;
	return {
		bytes: file.bytes,
		fileName: withExtension(file.fileName, 'recording', extension),
		mimeType: type.mimeType,
	};
}
