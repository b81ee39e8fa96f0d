/** Fixed-width integers as bytes, for the files the service builds byte by byte (images, recordings). */

function written(size: number, write: (bytes: Buffer) => void): Buffer {
	const bytes = Buffer.alloc(size);
	write(bytes);
	return bytes;
}

export const u16be = (value: number) => written(2, (bytes) => bytes.writeUInt16BE(value));
export const u16le = (value: number) => written(2, (bytes) => bytes.writeUInt16LE(value));
export const u32be = (value: number) => written(4, (bytes) => bytes.writeUInt32BE(value));
export const u32le = (value: number) => written(4, (bytes) => bytes.writeUInt32LE(value));
