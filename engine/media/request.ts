import type { FormPart, MediaFile } from './multipart';
import { sniffAudio, sniffImage } from './sniff';
import { InputError } from '../failures/errors';
import type { EndpointRequest } from '../request/endpoint';
import { megabytes } from '../values';

/**
 * What the image and audio operations' requests share: the request an item's Model and Options make, the parts
 * of a multipart body, the uploads named and typed by their bytes, the limit on a recording.
 */

/** An operation's request: the model, its settings, and every field the Options and Extra Body send. */
export interface MediaRequest extends EndpointRequest {
	/** Options > Put Output in Field: the binary field an image or audio goes to. */
	output: string;
	/** Options > Mask (edits): the binary field of the mask, when added. */
	mask?: string;
}

/** What every body is built around: the model, and the fields of the Options and Extra Body. */
export type Around = Pick<EndpointRequest, 'model' | 'fields'>;

/**
 * The parts of a multipart body: its text fields (the fields of the Options and Extra Body, objects as JSON
 * text, the node's own over them), then its files, in order.
 */
export function formParts(
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

/** OpenAI's limit on a recording, which gateways keep: 25 MB (MiB). */
export const MAX_RECORDING_BYTES = 25 * 1024 * 1024;

/**
 * A recording over the services' limit is refused before anything is sent (`source` names it, e.g. `binary
 * property "data" (talk.mp3)`, `field` the node's field it came from); `size` in bytes, known before the bytes
 * are read when n8n stored them.
 */
export function checkRecordingSize(size: number, source: string, field: string): void {
	if (size <= MAX_RECORDING_BYTES) return;
	throw new InputError(
		field,
		`${source} is ${megabytes(size)}, above the limit of ${megabytes(MAX_RECORDING_BYTES)} a transcription service takes`,
		'Send a shorter recording, or a smaller one: MP3 at 64 kbit/s holds about 50 minutes in 25 MB (e.g. convert it with ffmpeg -i in.wav -b:a 64k out.mp3). Split longer recordings into parts.',
	);
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

/** How to turn an image the edit endpoints refuse into one they take. */
const TO_PNG = 'convert it to PNG first (e.g. with the Edit Image node: Options > Format png).';

/**
 * An image to upload for an edit, named and typed by its bytes (PNG, JPEG or WebP, what the edit endpoints
 * take): services read the type and the extension, which an item from a webhook or an HTTP Request node often
 * lacks. `source` names the file in the error for a GIF, which they refuse, and for anything else.
 */
export function imageUpload(file: ItemFile, source: string, field: string): MediaFile {
	const type = sniffImage(file.bytes);
	if (type?.extension === 'gif') {
		throw new InputError(
			field,
			`${source} is a GIF image, which image edit services refuse: they take PNG, JPEG and WebP (checked the bytes, not only the name)`,
			`Pass a PNG, JPEG or WebP image, or ${TO_PNG}`,
		);
	}
	if (type === undefined) {
		throw new InputError(
			field,
			`${source} is not a PNG, JPEG or WebP image (checked the bytes, not only the name)`,
			`Pass an image file; ${TO_PNG}`,
		);
	}
	return {
		bytes: file.bytes,
		fileName: withExtension(file.fileName, 'image', type.extension),
		mimeType: type.mimeType,
	};
}

/**
 * A recording to upload, named and typed by its bytes (MP3, WAV, Ogg, FLAC, AAC, M4A/MP4, WebM): transcription
 * services refuse a file name without a known extension. A name whose extension already says the kind keeps it
 * (`talk.mpga`, `note.oga`). Bytes of no such kind (a text or a web page saved as talk.wav) are refused before
 * sending, `source` naming the file and `field` the node's field: they are not audio, whatever the name says.
 */
export function recordingUpload(file: ItemFile, source: string, field: string): MediaFile {
	const type = sniffAudio(file.bytes);
	if (type === undefined) {
		throw new InputError(
			field,
			`${source} is not audio: its bytes are no MP3, WAV, Ogg, FLAC, AAC, M4A, MP4 or WebM recording (checked the bytes, not only the name)`,
			'Pass the recording itself: a download that saved a web page or an error message under the name is no recording (check the node before this one). Convert other formats to MP3 first (e.g. ffmpeg -i in.aiff out.mp3).',
		);
	}
	// OpenAI's list of extensions has no .opus: an Ogg Opus recording goes as .ogg, which every service reads.
	const extension = type.extension === 'opus' ? 'ogg' : type.extension;
	return {
		bytes: file.bytes,
		fileName: withExtension(file.fileName, 'recording', extension),
		mimeType: type.mimeType,
	};
}
