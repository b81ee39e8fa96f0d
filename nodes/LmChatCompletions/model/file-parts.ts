/**
 * What chat completions can carry of a file the AI node hands the model, by its media type: an image goes as an
 * `image_url` part, a text file as text, any other file (a PDF) as a `file` part with its data; audio and video
 * cannot go, nor a file given only by a link or an id. Shared by the check of LangChain's blocks
 * (`langchain-content.ts`) and the conversion of the SDK's messages (`messages.ts`).
 */

export type Carriage = 'image' | 'text' | 'file';

/** A file that cannot go, and what the user can do about it. */
export interface Refusal {
	problem: string;
	fix: string;
}

const MEDIA_FIX =
	"Turn audio into text first (the Chat Completions Media node's Transcribe a Recording, on the same key), turn video into text some other way, or leave them out.";

/** How a file of this media type goes, or undefined when the protocol cannot carry it. */
export function carriage(mediaType: string): Carriage | undefined {
	if (mediaType.startsWith('image/')) return 'image';
	if (mediaType.startsWith('audio/') || mediaType.startsWith('video/')) return undefined;
	return mediaType.startsWith('text/') ? 'text' : 'file';
}

/** A block or file the protocol cannot carry, named by what it is (`an audio block of type audio/wav`). */
export function cannotCarry(what: string): Refusal {
	return {
		problem: `${what}, which chat completions cannot carry (they take text, images and files such as PDFs)`,
		fix: MEDIA_FIX,
	};
}

/**
 * Why a file (no image) cannot go: no media type, a media type the protocol cannot carry, a link or an id in
 * place of its data, or no data at all. Undefined when it can go.
 */
export function fileRefusal(
	what: string,
	file: { mediaType?: string; link?: string; byId?: boolean; hasData: boolean },
): Refusal | undefined {
	if (file.byId === true) {
		return {
			problem: `${what} given by a file id, and chat completions take the file's data`,
			fix: 'Pass the file itself (base64 data or a data URL), e.g. as binary data with the AI Agent\'s "Automatically Passthrough Binary PDFs".',
		};
	}
	if (file.link !== undefined && !file.link.startsWith('data:')) {
		return {
			problem: `${what} given by a link (${file.link}), and chat completions take a file's data, not its address`,
			fix: 'Download the file first, e.g. with an HTTP Request node, and pass it as binary data.',
		};
	}
	if (file.mediaType === undefined) {
		return {
			problem: `${what} without a media type`,
			fix: 'Give the file its MIME type (mime_type or mimeType, e.g. application/pdf), or a data URL that names it.',
		};
	}
	if (carriage(file.mediaType) === undefined) return cannotCarry(what);
	if (file.link === undefined && !file.hasData) {
		return {
			problem: `${what} without data`,
			fix: 'Pass the file as base64 data or a data URL.',
		};
	}
	return undefined;
}

/** The name a file part gives the service: the file's own, else `attachment` with the media type's extension. */
export function fileName(mediaType: string, filename: unknown): string {
	if (typeof filename === 'string' && filename !== '') return filename;
	const subtype = mediaType.split('/')[1]?.split(/[;+]/)[0] ?? '';
	return /^[a-z0-9]{1,5}$/i.test(subtype) ? `attachment.${subtype}` : 'attachment';
}

/** A text file as the text part that stands for it: its content inside a tag that names it. */
export function fileText(content: string, filename: unknown): string {
	const name =
		typeof filename === 'string' && filename !== '' ? ` name=${JSON.stringify(filename)}` : '';
	return `<file${name}>\n${content}\n</file>`;
}
