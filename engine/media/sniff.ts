/**
 * What a file is, read from its first bytes (the bytes decide, not a name or a header that may be wrong): the
 * image formats the image endpoints answer and Chat Completion sends (PNG, JPEG, GIF, WebP) and the audio formats
 * of speech replies and transcription uploads (MP3, WAV, Ogg Opus and Vorbis, FLAC, AAC, M4A/MP4, WebM); and the
 * type a header or a format name stands for.
 */

/** A file's type: its MIME type and the extension its name gets. */
export interface MediaType {
	mimeType: string;
	extension: string;
}

const type = (mimeType: string, extension: string): MediaType => ({ mimeType, extension });

/** Whether `bytes` hold `text` (Latin-1) at `offset`. */
function holds(bytes: Uint8Array, offset: number, text: string): boolean {
	if (bytes.length < offset + text.length) return false;
	for (let index = 0; index < text.length; index++) {
		if (bytes[offset + index] !== text.charCodeAt(index)) return false;
	}
	return true;
}

/**
 * What `bytes` named a PDF are instead, when they are none (a PDF starts with `%PDF-`): `an HTML page` (a
 * failed download's error or login page, saved under the PDF's name), else `not a PDF`; undefined for a PDF.
 */
export function notPdf(bytes: Uint8Array): string | undefined {
	if (holds(bytes, 0, '%PDF-')) return undefined;
	const start = Buffer.from(bytes.subarray(0, 64)).toString('latin1').trimStart().toLowerCase();
	return start.startsWith('<') ? 'an HTML page' : 'not a PDF';
}

/** The image `bytes` hold: PNG, JPEG, GIF or WebP; undefined for anything else. */
export function sniffImage(bytes: Uint8Array): MediaType | undefined {
	if (holds(bytes, 0, '\x89PNG\r\n\x1a\n')) return type('image/png', 'png');
	if (holds(bytes, 0, '\xff\xd8\xff')) return type('image/jpeg', 'jpeg');
	if (holds(bytes, 0, 'GIF8')) return type('image/gif', 'gif');
	if (holds(bytes, 0, 'RIFF') && holds(bytes, 8, 'WEBP')) return type('image/webp', 'webp');
	return undefined;
}

/** An MPEG audio frame header at `offset`: 11 sync bits, then a layer that is not 0 (ADTS uses layer 0). */
function mpegFrame(bytes: Uint8Array, offset: number): boolean {
	return (
		bytes[offset] === 0xff &&
		(bytes[offset + 1] & 0xe0) === 0xe0 &&
		(bytes[offset + 1] & 0x06) !== 0
	);
}

/** An AAC ADTS frame header at the start: 12 sync bits, layer 0. */
function adtsFrame(bytes: Uint8Array): boolean {
	return bytes[0] === 0xff && (bytes[1] & 0xf6) === 0xf0;
}

/** The recording `bytes` hold; undefined for anything else (raw PCM has no header to tell). */
export function sniffAudio(bytes: Uint8Array): MediaType | undefined {
	if (holds(bytes, 0, 'ID3') || mpegFrame(bytes, 0)) return type('audio/mpeg', 'mp3');
	if (holds(bytes, 0, 'RIFF') && holds(bytes, 8, 'WAVE')) return type('audio/wav', 'wav');
	// An Ogg stream's first page holds the codec's header: OpusHead for Opus, else Vorbis (or another codec).
	if (holds(bytes, 0, 'OggS')) {
		return holds(bytes, 28, 'OpusHead') ? type('audio/ogg', 'opus') : type('audio/ogg', 'ogg');
	}
	if (holds(bytes, 0, 'fLaC')) return type('audio/flac', 'flac');
	if (adtsFrame(bytes)) return type('audio/aac', 'aac');
	if (holds(bytes, 4, 'ftyp')) {
		return holds(bytes, 8, 'M4A ') ? type('audio/mp4', 'm4a') : type('video/mp4', 'mp4');
	}
	if (holds(bytes, 0, '\x1a\x45\xdf\xa3')) return type('audio/webm', 'webm');
	return undefined;
}

/** The video `bytes` hold: MP4 (an `ftyp` box) or WebM (an EBML header); undefined for anything else. */
export function sniffVideo(bytes: Uint8Array): MediaType | undefined {
	if (holds(bytes, 4, 'ftyp')) return type('video/mp4', 'mp4');
	if (holds(bytes, 0, '\x1a\x45\xdf\xa3')) return type('video/webm', 'webm');
	return undefined;
}

/** The audio types by the names services and n8n give them, each under its registered name. */
const AUDIO_TYPES: Record<string, MediaType> = {
	'audio/mpeg': type('audio/mpeg', 'mp3'),
	'audio/mp3': type('audio/mpeg', 'mp3'),
	'audio/wav': type('audio/wav', 'wav'),
	'audio/wave': type('audio/wav', 'wav'),
	'audio/x-wav': type('audio/wav', 'wav'),
	'audio/ogg': type('audio/ogg', 'ogg'),
	'audio/opus': type('audio/ogg', 'opus'),
	'audio/flac': type('audio/flac', 'flac'),
	'audio/x-flac': type('audio/flac', 'flac'),
	'audio/aac': type('audio/aac', 'aac'),
	'audio/mp4': type('audio/mp4', 'm4a'),
	'audio/webm': type('audio/webm', 'webm'),
	'audio/pcm': type('audio/pcm', 'pcm'),
	'audio/l16': type('audio/pcm', 'pcm'),
};

/** The audio type a Content-Type header names (`audio/mp3` is `audio/mpeg`); undefined when it names none. */
export function audioTypeOf(contentType: string | undefined): MediaType | undefined {
	return AUDIO_TYPES[(contentType ?? '').split(';')[0].trim().toLowerCase()];
}

/** The type of a speech format as OpenAI's `response_format` names it (`mp3`, `opus`, `aac`, `flac`, `wav`, `pcm`). */
export function speechFormatType(format: string | undefined): MediaType | undefined {
	return format === undefined ? undefined : audioTypeOf(`audio/${format.toLowerCase()}`);
}
