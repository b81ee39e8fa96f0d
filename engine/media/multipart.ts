import { randomBytes } from 'crypto';

import type { RawBody } from '../transport/outgoing';

/**
 * A multipart/form-data body (RFC 7578) made here, as one Buffer: n8n 2.41's request helper sends a Buffer as it
 * is (a global FormData turns into JSON next to a JSON Content-Type, a Blob is dropped as an empty object, a
 * Uint8Array view sends the whole buffer under it), and so does the dispatcher of n8n's AI transport (its undici
 * reads only its own FormData class, and throws on the global one). One Buffer also keeps its length and can be
 * sent again on a retry. No runtime dependency.
 */

/** A file to upload: its bytes, the name it is sent under (with its extension) and its MIME type. */
export interface MediaFile {
	bytes: Uint8Array;
	fileName: string;
	mimeType: string;
}

/** A text field, or a file. */
export type FormPart = { name: string; value: string } | { name: string; file: MediaFile };

export interface MultipartBody {
	/** `multipart/form-data; boundary=...`: the request's Content-Type. */
	contentType: string;
	body: Buffer;
}

/** A boundary no file holds by chance: 24 random hex digits after a fixed prefix. */
function newBoundary(): string {
	return `----n8nChatCompletions${randomBytes(12).toString('hex')}`;
}

/** A name in a header's quoted string, escaped as browsers escape form data: `"`, CR and LF percent-encoded. */
function quoted(text: string): string {
	return `"${text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/** A MIME type that fits in a header line; a type holding a line break is sent as bytes of no known type. */
function headerType(mimeType: string): string {
	return /[\r\n]/.test(mimeType) || mimeType.trim() === '' ? 'application/octet-stream' : mimeType;
}

/** The body of `parts`, in order: each text field as UTF-8, each file with its name and type. */
export function multipartBody(parts: readonly FormPart[], boundary = newBoundary()): MultipartBody {
	const pieces: Uint8Array[] = [];
	for (const part of parts) {
		const disposition = `Content-Disposition: form-data; name=${quoted(part.name)}`;
		if ('file' in part) {
			const { bytes, fileName, mimeType } = part.file;
			pieces.push(
				Buffer.from(
					`--${boundary}\r\n${disposition}; filename=${quoted(fileName)}\r\nContent-Type: ${headerType(mimeType)}\r\n\r\n`,
				),
				bytes,
				Buffer.from('\r\n'),
			);
		} else {
			pieces.push(Buffer.from(`--${boundary}\r\n${disposition}\r\n\r\n${part.value}\r\n`));
		}
	}
	pieces.push(Buffer.from(`--${boundary}--\r\n`));
	return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(pieces) };
}

/** The multipart body of `parts`, as a request sends it. */
export function formBody(parts: readonly FormPart[]): { raw: RawBody } {
	return { raw: multipartBody(parts) };
}
