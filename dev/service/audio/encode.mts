/**
 * Recordings built byte by byte, as the speech model answers them: WAV (16-bit mono PCM at 8 kHz, a tone),
 * MP3 (MPEG-1 Layer III frames of silence) and raw PCM (the WAV's samples without a header). WAV and MP3 carry the
 * text it speaks and the voice as tags (WAV: a LIST INFO chunk, INAM and IART; MP3: an ID3v2.4 tag, TIT2 and TPE1),
 * which the transcription model reads back; raw PCM has nowhere to carry them.
 */
import { u16le, u32le } from '../bytes.mts';

export interface SpokenTags {
	/** What is spoken. */
	title: string;
	/** The voice. */
	artist: string;
}

const SAMPLE_RATE = 8000;

/** A RIFF chunk: id, little-endian size, data, a pad byte to an even length. */
function riffChunk(id: string, data: Buffer): Buffer {
	const pad = data.length % 2 === 1 ? Buffer.alloc(1) : Buffer.alloc(0);
	return Buffer.concat([Buffer.from(id, 'latin1'), u32le(data.length), data, pad]);
}

/** `seconds` of a sine tone at `frequency` Hz as raw 16-bit little-endian samples, no header (nor tags). */
export function pcm(seconds: number, frequency = 440): Buffer {
	const samples = Math.round(seconds * SAMPLE_RATE);
	const bytes = Buffer.alloc(samples * 2);
	for (let index = 0; index < samples; index++) {
		const value = Math.sin((2 * Math.PI * frequency * index) / SAMPLE_RATE) * 8000;
		bytes.writeInt16LE(Math.round(value), index * 2);
	}
	return bytes;
}

/** `seconds` of a sine tone at `frequency` Hz, with the tags in a LIST INFO chunk (NUL-terminated UTF-8). */
export function wav(seconds: number, tags: SpokenTags, frequency = 440): Buffer {
	const samples = pcm(seconds, frequency);
	const format = Buffer.concat([
		u16le(1), // PCM
		u16le(1), // mono
		u32le(SAMPLE_RATE),
		u32le(SAMPLE_RATE * 2), // bytes per second
		u16le(2), // bytes per sample frame
		u16le(16), // bits per sample
	]);
	const text = (value: string) => Buffer.from(`${value}\0`, 'utf8');
	const info = Buffer.concat([
		Buffer.from('INFO', 'latin1'),
		riffChunk('INAM', text(tags.title)),
		riffChunk('IART', text(tags.artist)),
	]);
	const body = Buffer.concat([
		riffChunk('fmt ', format),
		riffChunk('LIST', info),
		riffChunk('data', samples),
	]);
	return Buffer.concat([
		Buffer.from('RIFF', 'latin1'),
		u32le(4 + body.length),
		Buffer.from('WAVE', 'latin1'),
		body,
	]);
}

/** A 28-bit number as ID3v2's "synchsafe" integer: 7 bits in each of 4 bytes. */
function synchsafe(value: number): Buffer {
	return Buffer.from([
		(value >> 21) & 0x7f,
		(value >> 14) & 0x7f,
		(value >> 7) & 0x7f,
		value & 0x7f,
	]);
}

/** An ID3v2.4 text frame: id, synchsafe size, no flags, UTF-8 (encoding 3), the text. */
function id3Text(id: string, value: string): Buffer {
	const data = Buffer.concat([Buffer.from([3]), Buffer.from(value, 'utf8')]);
	return Buffer.concat([Buffer.from(id, 'latin1'), synchsafe(data.length), Buffer.alloc(2), data]);
}

/** MPEG-1 Layer III, no CRC, 128 kbit/s, 44.1 kHz, mono: 417 bytes, 1152 samples a frame. */
const FRAME_HEADER = [0xff, 0xfb, 0x90, 0xc4];
const FRAME_BYTES = 417;
export const MP3_FRAME_SECONDS = 1152 / 44100;

/**
 * `seconds` of silence: an ID3v2.4 tag, then frames whose side information is all zero (no bits of main
 * data: each granule decodes to silence).
 */
export function mp3(seconds: number, tags: SpokenTags): Buffer {
	const frames = Buffer.concat([id3Text('TIT2', tags.title), id3Text('TPE1', tags.artist)]);
	const tag = Buffer.concat([
		Buffer.from('ID3', 'latin1'),
		Buffer.from([4, 0, 0]),
		synchsafe(frames.length),
		frames,
	]);
	const frame = Buffer.alloc(FRAME_BYTES);
	frame.set(FRAME_HEADER);
	const count = Math.max(1, Math.round(seconds / MP3_FRAME_SECONDS));
	return Buffer.concat([tag, ...Array.from({ length: count }, () => frame)]);
}
