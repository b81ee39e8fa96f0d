/**
 * Reading back the images and recordings the local service answers, written apart from the service's own code so
 * that a test checks its bytes independently: a PNG's size and iTXt chunks, a WAV's format and INFO tags, an MP3's
 * ID3v2 text frames and frame count, an MP4's boxes; a plain WAV made here, to upload; and how the service names
 * bytes it got.
 */
import { createHash } from 'node:crypto';

/** How the local service names the bytes it was sent: the first 12 hex digits of their SHA-256. */
export function sha(bytes: Buffer): string {
	return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

/** A file part as the local service's request log shows it. */
export function loggedFile(name: string, filename: string, type: string, bytes: Buffer) {
	return { name, filename, type, bytes: bytes.length, sha256: sha(bytes) };
}

export interface PngInfo {
	width: number;
	height: number;
	/** The iTXt chunks, by keyword. */
	text: Record<string, string>;
}

export function readPng(bytes: Buffer): PngInfo {
	expect(bytes.subarray(0, 8)).toEqual(
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	);
	const text: Record<string, string> = {};
	let size = { width: 0, height: 0 };
	for (let at = 8; at < bytes.length; ) {
		const length = bytes.readUInt32BE(at);
		const type = bytes.toString('latin1', at + 4, at + 8);
		const data = bytes.subarray(at + 8, at + 8 + length);
		if (type === 'IHDR') size = { width: data.readUInt32BE(0), height: data.readUInt32BE(4) };
		if (type === 'iTXt') {
			const keywordEnd = data.indexOf(0);
			// keyword NUL, compression flag and method, language tag NUL, translated keyword NUL, text
			let cursor = keywordEnd + 3;
			cursor = data.indexOf(0, cursor) + 1;
			cursor = data.indexOf(0, cursor) + 1;
			text[data.toString('latin1', 0, keywordEnd)] = data.toString('utf8', cursor);
		}
		at += 12 + length;
	}
	return { ...size, text };
}

export interface WavInfo {
	sampleRate: number;
	channels: number;
	bitsPerSample: number;
	seconds: number;
	/** The LIST INFO sub-chunks (INAM, IART, ...), NUL removed. */
	info: Record<string, string>;
}

export function readWav(bytes: Buffer): WavInfo {
	expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
	expect(bytes.toString('latin1', 8, 12)).toBe('WAVE');
	const wav: WavInfo = { sampleRate: 0, channels: 0, bitsPerSample: 0, seconds: 0, info: {} };
	for (let at = 12; at + 8 <= bytes.length; ) {
		const id = bytes.toString('latin1', at, at + 4);
		const size = bytes.readUInt32LE(at + 4);
		const data = bytes.subarray(at + 8, at + 8 + size);
		if (id === 'fmt ') {
			wav.channels = data.readUInt16LE(2);
			wav.sampleRate = data.readUInt32LE(4);
			wav.bitsPerSample = data.readUInt16LE(14);
		}
		if (id === 'data') {
			wav.seconds = size / (wav.sampleRate * wav.channels * (wav.bitsPerSample / 8));
		}
		if (id === 'LIST' && data.toString('latin1', 0, 4) === 'INFO') {
			for (let sub = 4; sub + 8 <= data.length; ) {
				const length = data.readUInt32LE(sub + 4);
				const value = data.toString('utf8', sub + 8, sub + 8 + length).replace(/\0+$/, '');
				wav.info[data.toString('latin1', sub, sub + 4)] = value;
				sub += 8 + length + (length % 2);
			}
		}
		at += 8 + size + (size % 2);
	}
	return wav;
}

export interface Mp3Info {
	/** The ID3v2 text frames (TIT2, TPE1, ...). */
	tags: Record<string, string>;
	/** MPEG audio frames after the tag, counted by walking their headers. */
	frames: number;
}

const unsynch = (bytes: Buffer, at: number) =>
	bytes[at] * 2 ** 21 + bytes[at + 1] * 2 ** 14 + bytes[at + 2] * 2 ** 7 + bytes[at + 3];

export function readMp3(bytes: Buffer): Mp3Info {
	expect(bytes.toString('latin1', 0, 3)).toBe('ID3');
	const tagEnd = 10 + unsynch(bytes, 6);
	const tags: Record<string, string> = {};
	for (let at = 10; at + 10 <= tagEnd; ) {
		const size = unsynch(bytes, at + 4);
		if (size === 0) break;
		// Encoding 3 is UTF-8, the only one the service writes.
		expect(bytes[at + 10]).toBe(3);
		tags[bytes.toString('latin1', at, at + 4)] = bytes.toString('utf8', at + 11, at + 10 + size);
		at += 10 + size;
	}
	let frames = 0;
	for (let at = tagEnd; at + 4 <= bytes.length; frames++) {
		expect([bytes[at], bytes[at + 1] & 0xe0]).toEqual([0xff, 0xe0]);
		// MPEG-1 Layer III: 144 x bitrate / sample rate (+ padding); bitrate index 9 = 128 kbit/s at 44.1 kHz here.
		const bitrate = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320][
			bytes[at + 2] >> 4
		];
		at += Math.floor((144 * bitrate * 1000) / 44100) + ((bytes[at + 2] >> 1) & 1);
	}
	return { tags, frames };
}

/** A WAV of `seconds` of silence, 16-bit mono at `sampleRate`, without tags: a recording the service did not make. */
export function silentWav(seconds: number, sampleRate = 16000): Buffer {
	const data = Buffer.alloc(Math.round(seconds * sampleRate) * 2);
	const header = Buffer.alloc(44);
	header.write('RIFF', 0, 'latin1');
	header.writeUInt32LE(36 + data.length, 4);
	header.write('WAVEfmt ', 8, 'latin1');
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20);
	header.writeUInt16LE(1, 22);
	header.writeUInt32LE(sampleRate, 24);
	header.writeUInt32LE(sampleRate * 2, 28);
	header.writeUInt16LE(2, 32);
	header.writeUInt16LE(16, 34);
	header.write('data', 36, 'latin1');
	header.writeUInt32LE(data.length, 40);
	return Buffer.concat([header, data]);
}

export interface Mp4Info {
	/** The top-level boxes' types, in order. */
	boxes: string[];
	/** `ftyp`'s major brand. */
	brand: string;
	/** `moov`/`mvhd`'s duration over its timescale. */
	seconds: number;
	/** The `free` box's JSON text: what the local service made the video from. */
	facts: Record<string, string>;
}

/** The boxes of an MP4 file, each size checked to end where the next begins and the last at the file's end. */
export function readMp4(bytes: Buffer): Mp4Info {
	const boxes: string[] = [];
	let brand = '';
	let seconds = NaN;
	let facts: Record<string, string> = {};
	let at = 0;
	while (at < bytes.length) {
		const size = bytes.readUInt32BE(at);
		const type = bytes.toString('latin1', at + 4, at + 8);
		const data = bytes.subarray(at + 8, at + size);
		expect(size).toBeGreaterThanOrEqual(8);
		boxes.push(type);
		if (type === 'ftyp') brand = data.toString('latin1', 0, 4);
		if (type === 'moov' && data.toString('latin1', 4, 8) === 'mvhd') {
			// mvhd v0: version and flags, creation, modification, timescale, duration
			seconds = data.readUInt32BE(8 + 16) / data.readUInt32BE(8 + 12);
		}
		if (type === 'free') facts = JSON.parse(data.toString('utf8')) as Record<string, string>;
		at += size;
	}
	expect(at).toBe(bytes.length);
	return { boxes, brand, seconds, facts };
}
