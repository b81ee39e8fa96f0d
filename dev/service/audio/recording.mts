/**
 * What an uploaded recording is, read from its bytes as a transcription service's decoder would find out: its
 * container (WAV, MP3, Ogg, FLAC, MP4/M4A, WebM), its length in seconds (from the WAV header or the MP3 bitrate;
 * others at 128 kbit/s), and its title tag when it has one (WAV's INAM, MP3's ID3 TIT2): the speech model's
 * recordings say there what they speak.
 */

export type Container = 'wav' | 'mp3' | 'ogg' | 'flac' | 'mp4' | 'webm';

export interface Recording {
	container: Container;
	seconds: number;
	title?: string;
}

/** Bytes per second of a recording whose length its header does not give (128 kbit/s). */
const ASSUMED_BYTES_PER_SECOND = 16_000;

function textAt(bytes: Buffer, offset: number, text: string): boolean {
	return bytes.toString('latin1', offset, offset + text.length) === text;
}

/** A WAV file's chunks: the byte rate (`fmt `), the samples' size (`data`) and the INAM of a LIST INFO chunk. */
function readWav(bytes: Buffer): Recording {
	let byteRate = 0;
	let dataBytes = 0;
	let title: string | undefined;
	for (let offset = 12; offset + 8 <= bytes.length; ) {
		const id = bytes.toString('latin1', offset, offset + 4);
		const size = bytes.readUInt32LE(offset + 4);
		const start = offset + 8;
		if (id === 'fmt ' && start + 12 <= bytes.length) byteRate = bytes.readUInt32LE(start + 8);
		if (id === 'data') dataBytes = Math.min(size, bytes.length - start);
		if (id === 'LIST' && textAt(bytes, start, 'INFO')) {
			for (let at = start + 4; at + 8 <= start + size; ) {
				const length = bytes.readUInt32LE(at + 4);
				if (textAt(bytes, at, 'INAM')) {
					title = bytes.toString('utf8', at + 8, at + 8 + length).replace(/\0+$/, '');
				}
				at += 8 + length + (length % 2);
			}
		}
		offset = start + size + (size % 2);
	}
	const seconds = byteRate > 0 ? dataBytes / byteRate : bytes.length / ASSUMED_BYTES_PER_SECOND;
	return { container: 'wav', seconds, ...(title === undefined ? {} : { title }) };
}

/** A 28-bit "synchsafe" integer of ID3v2 (7 bits a byte). */
function synchsafeAt(bytes: Buffer, offset: number): number {
	return (
		(bytes[offset] << 21) | (bytes[offset + 1] << 14) | (bytes[offset + 2] << 7) | bytes[offset + 3]
	);
}

/** An ID3v2 text frame's text: encoding 0 (Latin-1), 1 (UTF-16 with BOM), 2 (UTF-16BE) or 3 (UTF-8). */
function id3Text(data: Buffer): string {
	const [encoding] = data;
	const text = data.subarray(1);
	if (encoding === 3) return text.toString('utf8');
	if (encoding === 0) return text.toString('latin1');
	const bigEndian = encoding === 2 || (text[0] === 0xfe && text[1] === 0xff);
	const body = encoding === 1 ? text.subarray(2) : text;
	return (bigEndian ? Buffer.from(body).swap16() : body).toString('utf16le');
}

/** MPEG-1 Layer III bitrates in kbit/s by the header's index. */
const BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

/** An MP3 file: an optional ID3v2 tag (its TIT2), then frames whose first header gives the bitrate. */
function readMp3(bytes: Buffer): Recording {
	let audioStart = 0;
	let title: string | undefined;
	if (textAt(bytes, 0, 'ID3')) {
		const version = bytes[3];
		audioStart = 10 + synchsafeAt(bytes, 6);
		for (let at = 10; at + 10 <= audioStart; ) {
			const id = bytes.toString('latin1', at, at + 4);
			const size = version >= 4 ? synchsafeAt(bytes, at + 4) : bytes.readUInt32BE(at + 4);
			if (size === 0) break;
			if (id === 'TIT2')
				title = id3Text(bytes.subarray(at + 10, at + 10 + size)).replace(/\0+$/, '');
			at += 10 + size;
		}
	}
	const kbps = BITRATES[bytes[audioStart + 2] >> 4] ?? 0;
	const audioBytes = Math.max(0, bytes.length - audioStart);
	const seconds =
		kbps > 0 ? (audioBytes * 8) / (kbps * 1000) : audioBytes / ASSUMED_BYTES_PER_SECOND;
	return { container: 'mp3', seconds, ...(title === undefined ? {} : { title }) };
}

/** Whether an MPEG audio frame header starts at `offset`: 11 sync bits and a layer that is not 0. */
function frameSync(bytes: Buffer, offset: number): boolean {
	return (
		bytes[offset] === 0xff &&
		(bytes[offset + 1] & 0xe0) === 0xe0 &&
		(bytes[offset + 1] & 0x06) !== 0
	);
}

/** The recording `bytes` hold; undefined when they are none of the containers a transcription service reads. */
export function readRecording(bytes: Buffer): Recording | undefined {
	if (textAt(bytes, 0, 'RIFF') && textAt(bytes, 8, 'WAVE')) return readWav(bytes);
	if (textAt(bytes, 0, 'ID3') || frameSync(bytes, 0)) return readMp3(bytes);
	const seconds = bytes.length / ASSUMED_BYTES_PER_SECOND;
	if (textAt(bytes, 0, 'OggS')) return { container: 'ogg', seconds };
	if (textAt(bytes, 0, 'fLaC')) return { container: 'flac', seconds };
	if (textAt(bytes, 4, 'ftyp')) return { container: 'mp4', seconds };
	if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3)
		return { container: 'webm', seconds };
	return undefined;
}
