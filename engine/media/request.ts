import type { FormPart, MediaFile } from './multipart';
import { MEDIA_OPTIONS } from './options';
import type { MediaOperation } from './paths';
import { sniffAudio, sniffImage } from './sniff';
import { InputError } from '../failures/errors';
import { checkedValue, wireFields } from '../options/read';
import type { OptionSpec } from '../options/table';
import type { EndpointRequest } from '../request/endpoint';
import { endpointRequest } from '../request/endpoint';
import { describe, megabytes } from '../values';

/**
 * The requests of the image and audio endpoints, from the values a node read for one item: JSON bodies for
 * generations and speech, the parts of a multipart body for edits, transcriptions and translations. Values are
 * checked before anything is sent; an option that is not set is not sent.
 */

/** How messages name the node's own fields. */
export const MEDIA_FIELDS = {
	prompt: 'Prompt',
	input: 'Text Input',
	voice: 'Voice',
	binaryPropertyName: 'Input Binary Field',
} as const;

/** The fields each operation sets from its own fields (not Options), with who sets them. */
const OWN_FIELDS: Record<MediaOperation, Record<string, string>> = {
	generate: { prompt: 'the Prompt field sets' },
	edit: {
		prompt: 'the Prompt field sets',
		image: 'the Input Binary Field sets',
		'image[]': 'the Input Binary Field sets',
	},
	transcribe: { file: 'the Input Binary Field sets' },
	translate: { file: 'the Input Binary Field sets' },
	speak: { input: 'the Text Input field sets', voice: 'the Voice field sets' },
};

/** Each operation's options as messages name them: `Options > Number of Images`. */
const CHECKED = Object.fromEntries(
	Object.entries(MEDIA_OPTIONS).map(([operation, specs]) => [
		operation,
		specs.map((spec: OptionSpec) => ({ ...spec, label: `Options > ${spec.label}` })),
	]),
) as Record<MediaOperation, OptionSpec[]>;

/** An operation's request: the model, its settings, and every field the Options and Extra Body send. */
export interface MediaRequest extends EndpointRequest {
	/** Options > Put Output in Field: the binary field an image or audio goes to. */
	output: string;
	/** Options > Mask (edits): the binary field of the mask, when added. */
	mask?: string;
}

/**
 * Checks the Model and one item's Options before anything is sent: the operation's own (`MEDIA_OPTIONS`), each
 * sent under its wire name when set, and the package's Timeout, retries and Extra Body, which may not set what
 * the node sets.
 */
export function mediaRequest(
	operation: MediaOperation,
	model: unknown,
	options: Record<string, unknown>,
): MediaRequest {
	const specs = CHECKED[operation];
	const own = new Set(specs.map((spec) => spec.name));
	const shared = Object.fromEntries(Object.entries(options).filter(([name]) => !own.has(name)));
	const reserved: Record<string, string> = {
		model: 'the Model field sets',
		...OWN_FIELDS[operation],
	};
	for (const spec of specs) {
		if ('wire' in spec && spec.wire !== undefined) reserved[spec.wire] = `${spec.label} sets`;
	}
	const request = endpointRequest(model, shared, reserved);
	const setting = (name: string) => {
		const spec = specs.find((option) => option.name === name);
		if (spec === undefined || spec.kind === 'boolean' || spec.kind === 'json') return undefined;
		return options[name] === undefined ? undefined : String(checkedValue(spec, options[name]));
	};
	return {
		...request,
		fields: { ...request.fields, ...wireFields(options, specs) },
		output: setting('binaryPropertyOutput') ?? 'data',
		mask: setting('mask'),
	};
}

/** What every body is built around: the model, and the fields of the Options and Extra Body. */
type Around = Pick<EndpointRequest, 'model' | 'fields'>;

/** A text the service needs, non-empty; else the field's error with `fix`. */
function requiredText(value: unknown, field: string, fix: string): string {
	if (typeof value === 'string' && value.trim() !== '') return value;
	const problem = typeof value === 'string' ? 'is empty' : `must be text, got ${describe(value)}`;
	throw new InputError(field, problem, fix);
}

/** What each image operation's prompt says, for its fix. */
const PROMPT_FIXES = {
	generate: 'Describe the image to make, e.g. "A watercolour fox in the snow".',
	edit: 'Describe the change, e.g. "Add a red hat".',
};

/** An image operation's Prompt, non-empty text; else its error. */
export function imagePrompt(prompt: unknown, operation: 'generate' | 'edit'): string {
	return requiredText(prompt, MEDIA_FIELDS.prompt, PROMPT_FIXES[operation]);
}

/**
 * POST /images/generations: `{model, prompt, n, size?, quality?, response_format}`, with one image and the
 * image data in the reply unless Options say otherwise.
 */
export function generationBody(request: Around, prompt: unknown): Record<string, unknown> {
	return {
		n: 1,
		response_format: 'b64_json',
		...request.fields,
		model: request.model,
		prompt: imagePrompt(prompt, 'generate'),
	};
}

/**
 * The parts of a multipart body: its text fields (the fields of the Options and Extra Body, objects as JSON
 * text, the node's own over them), then its files, in order.
 */
function formParts(
	request: Around,
	own: Record<string, string>,
	files: ReadonlyArray<{ name: string; file: MediaFile }>,
): FormPart[] {
	const text = { ...request.fields, model: request.model, ...own };
	return [
		...Object.entries(text).map(([name, value]) => ({
			name,
			value: typeof value === 'string' ? value : JSON.stringify(value),
		})),
		...files,
	];
}

/**
 * POST /images/edits: `image` (several: `image[]`, in order), `mask`, `prompt` (checked with `imagePrompt`),
 * `model`, `n?`, `size?`.
 */
export function editParts(
	request: Around,
	prompt: string,
	images: readonly MediaFile[],
	mask?: MediaFile,
): FormPart[] {
	const name = images.length === 1 ? 'image' : 'image[]';
	return formParts(request, { prompt }, [
		...images.map((file) => ({ name, file })),
		...(mask === undefined ? [] : [{ name: 'mask', file: mask }]),
	]);
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

/**
 * POST /audio/transcriptions and /audio/translations: `file`, `model`, and `language`, `prompt`,
 * `response_format` and `temperature` when set.
 */
export function transcriptionParts(request: Around, file: MediaFile): FormPart[] {
	checkRecordingSize(file.bytes.length, `the recording ${file.fileName}`);
	return formParts(request, {}, [{ name: 'file', file }]);
}

/** POST /audio/speech: `{model, input, voice, response_format?, speed?}`. */
export function speechBody(
	request: Around,
	input: unknown,
	voice: unknown,
): Record<string, unknown> {
	return {
		...request.fields,
		model: request.model,
		input: requiredText(input, MEDIA_FIELDS.input, 'Give the text to speak.'),
		voice: requiredText(
			voice,
			MEDIA_FIELDS.voice,
			"Name one of the model's voices, e.g. alloy (OpenAI) or af_heart (Kokoro): voices depend on the model.",
		),
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
