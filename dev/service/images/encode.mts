/**
 * Image files built byte by byte, nothing decoded or drawn: PNG (with text chunks), baseline JPEG and lossless
 * WebP of flat colours, and a one-pixel GIF. The fixtures (make-assets.mts) and the image model's answers
 * (models/image.mts) are made with them.
 */
import { crc32, deflateSync } from 'node:zlib';
import { u16be, u32be, u32le } from '../bytes.mts';

/** An 8-bit RGB colour. */
export type Rgb = [red: number, green: number, blue: number];

/** The colour of the pixel at x, y. */
export type Paint = (x: number, y: number) => Rgb;

/** The fixtures' gradient: red grows to the right, green downwards, blue fixed. */
const gradient: Paint = (x, y) => [x * 120, y * 80, 200];

/**
 * PNG: signature, IHDR, an iTXt chunk per `text` entry (keyword, then UTF-8 text), one IDAT of 8-bit RGB rows
 * (filter byte 0, then the pixels), IEND.
 */
export function png(
	width: number,
	height: number,
	paint: Paint = gradient,
	text: Record<string, string> = {},
): Buffer {
	const chunk = (type: string, data: Buffer): Buffer => {
		const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
		return Buffer.concat([u32be(data.length), typed, u32be(crc32(typed))]);
	};
	// iTXt: keyword, NUL, not compressed (0, 0), no language tag, no translated keyword, the text.
	const textChunks = Object.entries(text).map(([keyword, value]) =>
		chunk(
			'iTXt',
			Buffer.concat([
				Buffer.from(keyword, 'latin1'),
				Buffer.from([0, 0, 0, 0, 0]),
				Buffer.from(value, 'utf8'),
			]),
		),
	);
	const rows = Array.from({ length: height }, (_, y) =>
		Buffer.from([0, ...Array.from({ length: width }, (_, x) => paint(x, y)).flat()]),
	);
	return Buffer.concat([
		Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
		chunk('IHDR', Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])])),
		...textChunks,
		chunk('IDAT', deflateSync(Buffer.concat(rows))),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/**
 * Baseline JPEG, one 8-bit grey component, every block flat mid-grey: each 8x8 block codes a DC
 * difference of 0 and end-of-block, and both Huffman tables hold one 1-bit code ("0") for symbol 0,
 * so a block is the bits 00.
 */
export function jpeg(width: number, height: number): Buffer {
	const segment = (marker: number, data: Buffer): Buffer =>
		Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data]);
	const huffman = (tableClass: number): Buffer =>
		Buffer.from([tableClass << 4, 1, ...Array<number>(15).fill(0), 0]);
	const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
	const bits = '00'.repeat(blocks).padEnd(Math.ceil((blocks * 2) / 8) * 8, '1');
	const scan = Buffer.from(bits.match(/.{8}/g)?.map((byte) => parseInt(byte, 2)) ?? []);
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		segment(0xdb, Buffer.from([0, ...Array<number>(64).fill(1)])),
		segment(
			0xc0,
			Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])]),
		),
		segment(0xc4, huffman(0)),
		segment(0xc4, huffman(1)),
		segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
		scan,
		Buffer.from([0xff, 0xd9]),
	]);
}

/**
 * GIF89a of one black pixel: a 2-colour global table, one image whose LZW data (minimum code size 2,
 * so 3-bit codes) is clear (4), index 0, end (5), packed from the low bit up: 0x44 0x01.
 */
export function gif1x1(): Buffer {
	return Buffer.concat([
		Buffer.from('GIF89a', 'latin1'),
		Buffer.from([1, 0, 1, 0, 0x80, 0, 0]),
		Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]),
		Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]),
		Buffer.from([2, 2, 0x44, 0x01, 0]),
		Buffer.from([0x3b]),
	]);
}

/** Bits written from the low bit of each byte up, as VP8L reads them. */
function littleEndianBits(fields: Array<[value: number, bits: number]>): Buffer {
	const bits = fields.flatMap(([value, count]) =>
		Array.from({ length: count }, (_, bit) => (value >>> bit) & 1),
	);
	const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
	bits.forEach((bit, index) => {
		bytes[index >> 3] |= bit << (index & 7);
	});
	return bytes;
}

/**
 * Lossless WebP (VP8L) of transparent black pixels: header (size, no alpha hint, version 0), no transforms,
 * no colour cache, no meta prefix codes, then five "simple" prefix codes of one 1-bit symbol 0 each
 * (green, red, blue, alpha, distance), so every pixel takes no bits at all.
 */
export function webp(width: number, height: number): Buffer {
	const prefixCode: Array<[number, number]> = [
		[1, 1],
		[0, 1],
		[0, 1],
		[0, 1],
	];
	const data = Buffer.concat([
		Buffer.from([0x2f]),
		littleEndianBits([
			[width - 1, 14],
			[height - 1, 14],
			[0, 1],
			[0, 3],
			[0, 1],
			[0, 1],
			[0, 1],
			...Array.from({ length: 5 }, () => prefixCode).flat(),
		]),
	]);
	const padded = data.length % 2 === 0 ? data : Buffer.concat([data, Buffer.from([0])]);
	const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), u32le(data.length), padded]);
	return Buffer.concat([
		Buffer.from('RIFF', 'latin1'),
		u32le(4 + chunk.length),
		Buffer.from('WEBP', 'latin1'),
		chunk,
	]);
}
