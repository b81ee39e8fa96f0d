/**
 * The videos the service makes: MP4 files of well-formed boxes, `ftyp` (brand `isom`), `moov` holding only
 * `mvhd` (its duration the job's seconds), `free` holding what the video was made from as JSON text, then
 * `mdat` of zeros up to the file's size. No tracks: a player reads its length but shows nothing.
 */
import { u32be } from '../bytes.mts';

/** The `mdat`'s zeros of a video without `content_bytes`. */
const SMALL_MDAT = 2048;

const box = (type: string, ...payload: Buffer[]) => {
	const body = Buffer.concat(payload);
	return Buffer.concat([u32be(8 + body.length), Buffer.from(type, 'latin1'), body]);
};

const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), u32be(512), Buffer.from('isomiso2mp41'));

/** `mvhd` version 0: times 0, timescale 1000, the duration, rate 1.0, volume 1.0, the unit matrix, next track 1. */
function mvhd(seconds: number): Buffer {
	const matrix = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(u32be);
	return box(
		'mvhd',
		Buffer.alloc(12),
		u32be(1000),
		u32be(Math.round(seconds * 1000)),
		u32be(0x10000),
		Buffer.from([0x01, 0x00]),
		Buffer.alloc(10),
		...matrix,
		Buffer.alloc(24),
		u32be(1),
	);
}

export interface Mp4 {
	/** Every box but `mdat`'s zeros (its size and type included). */
	head: Buffer;
	size: number;
}

/** The file of a video `seconds` long made from `facts`: `size` bytes (at least the head's), or small. */
export function mp4(facts: Record<string, string>, seconds: number, size?: number): Mp4 {
	const boxes = Buffer.concat([
		ftyp,
		box('moov', mvhd(seconds)),
		box('free', Buffer.from(JSON.stringify(facts), 'utf8')),
	]);
	const total = size ?? boxes.length + 8 + SMALL_MDAT;
	return {
		head: Buffer.concat([boxes, u32be(total - boxes.length), Buffer.from('mdat')]),
		size: total,
	};
}
