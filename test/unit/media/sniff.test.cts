/** What a file is, by its first bytes: images and recordings; the types headers and speech formats name. */
import { audioTypeOf, sniffAudio, sniffImage, speechFormatType } from '../../../engine/media/sniff';
import { pngHeader } from '../../support/images.cts';

const bytes = (...parts: Array<string | number[]>) =>
	Buffer.concat(
		parts.map((part) =>
			typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
		),
	);

/** An Ogg page header (27 bytes) with one segment, then the first packet. */
const oggPage = (packet: string) =>
	bytes('OggS', Array<number>(22).fill(0), [1, packet.length], packet);

test.each([
	['PNG', pngHeader(2, 3), 'image/png', 'png'],
	['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'), 'image/jpeg', 'jpeg'],
	['GIF', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif', 'gif'],
	['WebP', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8L'), 'image/webp', 'webp'],
])('an image: %s', (_name, data, mimeType, extension) => {
	expect(sniffImage(data)).toEqual({ mimeType, extension });
	expect(sniffAudio(data)).toBeUndefined();
});

test.each([
	['text', bytes('hello, this is text')],
	['a PDF', bytes('%PDF-1.7')],
	['a WAV (RIFF, but WAVE)', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
	['nothing', Buffer.alloc(0)],
	['a cut PNG signature', bytes([0x89, 0x50, 0x4e])],
])('no image: %s', (_name, data) => {
	expect(sniffImage(data)).toBeUndefined();
});

test.each([
	['MP3 with an ID3 tag', bytes('ID3', [4, 0, 0, 0, 0, 0, 0]), 'audio/mpeg', 'mp3'],
	[
		'MP3 frames without a tag (MPEG-1 Layer III)',
		bytes([0xff, 0xfb, 0x90, 0xc4]),
		'audio/mpeg',
		'mp3',
	],
	['MP3 frames of MPEG-2 Layer III', bytes([0xff, 0xf3, 0x64, 0xc4]), 'audio/mpeg', 'mp3'],
	['WAV', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'audio/wav', 'wav'],
	['Ogg Opus', oggPage('OpusHead'), 'audio/ogg', 'opus'],
	['Ogg Vorbis', oggPage('\x01vorbis'), 'audio/ogg', 'ogg'],
	['FLAC', bytes('fLaC', [0, 0, 0, 0x22]), 'audio/flac', 'flac'],
	['AAC in ADTS frames', bytes([0xff, 0xf1, 0x50, 0x80]), 'audio/aac', 'aac'],
	['M4A', bytes([0, 0, 0, 0x20], 'ftypM4A '), 'audio/mp4', 'm4a'],
	['MP4', bytes([0, 0, 0, 0x20], 'ftypisom'), 'video/mp4', 'mp4'],
	['WebM', bytes([0x1a, 0x45, 0xdf, 0xa3]), 'audio/webm', 'webm'],
])('a recording: %s', (_name, data, mimeType, extension) => {
	expect(sniffAudio(data)).toEqual({ mimeType, extension });
});

test.each([
	['raw PCM', bytes([0x10, 0x00, 0x20, 0x00])],
	['an image', pngHeader(1, 1)],
	['text', bytes('transcript')],
	['one byte of a frame sync', bytes([0xff])],
])('no recording: %s', (_name, data) => {
	expect(sniffAudio(data)).toBeUndefined();
});

/** The two names of an audio type: a Content-Type header, and a speech format (`response_format`). */
const named = { header: audioTypeOf, 'speech format': speechFormatType };

test.each<[keyof typeof named, string, string, string]>([
	['header', 'audio/mpeg', 'audio/mpeg', 'mp3'],
	['header', 'audio/mp3', 'audio/mpeg', 'mp3'],
	['header', 'Audio/MPEG; charset=binary', 'audio/mpeg', 'mp3'],
	['header', 'audio/x-wav', 'audio/wav', 'wav'],
	['header', 'audio/wave', 'audio/wav', 'wav'],
	['header', 'audio/opus', 'audio/ogg', 'opus'],
	['header', 'audio/aac', 'audio/aac', 'aac'],
	['header', 'audio/pcm', 'audio/pcm', 'pcm'],
	['speech format', 'mp3', 'audio/mpeg', 'mp3'],
	['speech format', 'opus', 'audio/ogg', 'opus'],
	['speech format', 'aac', 'audio/aac', 'aac'],
	['speech format', 'flac', 'audio/flac', 'flac'],
	['speech format', 'wav', 'audio/wav', 'wav'],
	['speech format', 'pcm', 'audio/pcm', 'pcm'],
])('the %s %s names %s (.%s)', (how, name, mimeType, extension) => {
	expect(named[how](name)).toEqual({ mimeType, extension });
});

test('headers and formats that name no audio type name nothing', () => {
	expect(audioTypeOf('application/octet-stream')).toBeUndefined();
	expect(audioTypeOf('application/json')).toBeUndefined();
	expect(audioTypeOf(undefined)).toBeUndefined();
	expect(speechFormatType('mulaw')).toBeUndefined();
	expect(speechFormatType(undefined)).toBeUndefined();
});
