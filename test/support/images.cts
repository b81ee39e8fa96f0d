/** Small image headers made in code: enough bytes for format sniffing and size reading. */

import { createHash } from 'crypto';

export function pngHeader(width: number, height: number): Buffer {
	const header = Buffer.alloc(33);
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
	header.writeUInt32BE(13, 8);
	header.write('IHDR', 12, 'ascii');
	header.writeUInt32BE(width, 16);
	header.writeUInt32BE(height, 20);
	header.writeUInt8(8, 24);
	header.writeUInt8(6, 25);
	return header;
}

export function dataUri(bytes: Buffer, mimeType = 'image/png'): string {
	return `data:${mimeType};base64,${bytes.toString('base64')}`;
}

/**
 * The placeholder a Chat Completion node's output keeps for the image or file `bytes` in binary property
 * `name`: the property, and a mark of the bytes (their size and the first 16 hex digits of their SHA-256).
 */
export function placeholderOf(name: string, bytes: Buffer): string {
	const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
	return `n8n-binary:${name}#${bytes.length}-${hash}`;
}
