/** The format and pixel size of an image, read from the header bytes of its file (nothing is decoded). */

export type ImageFormat = 'PNG' | 'JPEG' | 'GIF' | 'WEBP';

export interface ImageInfo {
	format: ImageFormat;
	width: number;
	height: number;
}

function hasAt(bytes: Buffer, offset: number, text: string): boolean {
	return (
		bytes.length >= offset + text.length &&
		bytes.toString('latin1', offset, offset + text.length) === text
	);
}

/** What `bytes` hold; undefined when they are no PNG, JPEG, GIF or WEBP file whose header gives a size. */
export function readImageHeader(bytes: Buffer): ImageInfo | undefined {
	const info = png(bytes) ?? gif(bytes) ?? webp(bytes) ?? jpeg(bytes);
	return info !== undefined && info.width > 0 && info.height > 0 ? info : undefined;
}

/** Signature, then the IHDR chunk: width and height as 32-bit big-endian. */
function png(bytes: Buffer): ImageInfo | undefined {
	if (!hasAt(bytes, 0, '\x89PNG\r\n\x1a\n') || !hasAt(bytes, 12, 'IHDR') || bytes.length < 24) {
		return undefined;
	}
	return { format: 'PNG', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Signature, then the logical screen size as 16-bit little-endian. */
function gif(bytes: Buffer): ImageInfo | undefined {
	if (!(hasAt(bytes, 0, 'GIF87a') || hasAt(bytes, 0, 'GIF89a')) || bytes.length < 10) {
		return undefined;
	}
	return { format: 'GIF', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

/** A RIFF container whose first chunk is lossy (VP8), lossless (VP8L) or extended (VP8X) WebP. */
function webp(bytes: Buffer): ImageInfo | undefined {
	if (!hasAt(bytes, 0, 'RIFF') || !hasAt(bytes, 8, 'WEBP')) return undefined;
	const format = 'WEBP';
	if (hasAt(bytes, 12, 'VP8 ') && bytes.length >= 30 && hasAt(bytes, 23, '\x9d\x01\x2a')) {
		return {
			format,
			width: bytes.readUInt16LE(26) & 0x3fff,
			height: bytes.readUInt16LE(28) & 0x3fff,
		};
	}
	if (hasAt(bytes, 12, 'VP8L') && bytes.length >= 25 && bytes[20] === 0x2f) {
		const bits = bytes.readUInt32LE(21);
		return { format, width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	if (hasAt(bytes, 12, 'VP8X') && bytes.length >= 30) {
		return { format, width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
	}
	return undefined;
}

/** Start-of-frame markers: SOF0 to SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
function isStartOfFrame(marker: number): boolean {
	return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks the marker segments up to the first start-of-frame, which holds height and width. */
function jpeg(bytes: Buffer): ImageInfo | undefined {
	if (!(bytes[0] === 0xff && bytes[1] === 0xd8)) return undefined;
	let offset = 2;
	while (offset + 4 <= bytes.length) {
		if (bytes[offset] !== 0xff) return undefined;
		const marker = bytes[offset + 1];
		if (marker === 0xff) {
			offset += 1;
		} else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
			offset += 2;
		} else if (marker === 0xd9 || marker === 0xda) {
			return undefined;
		} else if (isStartOfFrame(marker)) {
			if (offset + 9 > bytes.length) return undefined;
			return {
				format: 'JPEG',
				width: bytes.readUInt16BE(offset + 7),
				height: bytes.readUInt16BE(offset + 5),
			};
		} else {
			offset += 2 + bytes.readUInt16BE(offset + 2);
		}
	}
	return undefined;
}
