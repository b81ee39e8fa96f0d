import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closedPort, keys, useLocalService } from '../../support/service.cts';
import type { Reply } from './client.cts';
import { chat, expectInvalidRequest, joinDeltas, streamChunks } from './client.cts';

const service = useLocalService();

const assetsDir = join(__dirname, '..', '..', '..', 'dev', 'service', 'assets');
const asset = (name: string) => readFileSync(join(assetsDir, name));
const dataUri = (bytes: Buffer, mime = 'image/png') =>
	`data:${mime};base64,${bytes.toString('base64')}`;

function image(url: string, detail?: string) {
	return { type: 'image_url', image_url: { url, ...(detail === undefined ? {} : { detail }) } };
}

function vision(content: unknown[], extra: Record<string, unknown> = {}) {
	return chat(service(), keys.default, {
		model: 'vision-1',
		messages: [{ role: 'user', content }],
		...extra,
	});
}

/** Header-only files for the variants the fixtures do not cover. */
const headers = {
	webpLossy: Buffer.concat([
		Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00', 'latin1'),
		Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 7, 0, 9, 0]),
	]),
	webpExtended: Buffer.concat([
		Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00', 'latin1'),
		Buffer.from([0, 0, 0, 0, 0x3f, 0x01, 0, 0xc7, 0, 0]),
	]),
	// SOI, an APP0 segment, then a progressive start of frame (SOF2): 600 high, 800 wide.
	jpegProgressive: Buffer.from([
		0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46, 0xff, 0xc2, 0x00, 0x0b, 0x08, 0x02, 0x58, 0x03,
		0x20, 0x01, 0x01, 0x11, 0x00,
	]),
};

describe('vision-1', () => {
	it('is listed for the default and premium keys, and answers as vision-1-2026-11-01', async () => {
		const reply = await vision([image(`${service().origin}/__assets/pixel-2x3.png`)]);
		expect(reply.status).toBe(200);
		expect(reply.json.model).toBe('vision-1-2026-11-01');
		expect(reply.json.choices[0]).toEqual({
			index: 0,
			message: { role: 'assistant', content: 'Image 1: PNG 2x3' },
			finish_reason: 'stop',
		});
	});

	it('reads every fixture format by URL, in order, with the text after a blank line', async () => {
		const origin = service().origin;
		const reply = await vision([
			{ type: 'text', text: 'What are these?' },
			image(`${origin}/__assets/pixel-2x3.png`, 'high'),
			image(`http://localhost:${new URL(origin).port}/__assets/grey-4x5.jpg`, 'low'),
			image(`${origin}/__assets/dot-1x1.gif`),
			image(`${origin}/__assets/clear-3x2.webp`, 'auto'),
			{ type: 'text', text: 'Be brief.' },
		]);
		expect(reply.json.choices[0].message.content).toBe(
			[
				'Image 1: PNG 2x3 (detail high)',
				'Image 2: JPEG 4x5 (detail low)',
				'Image 3: GIF 1x1',
				'Image 4: WEBP 3x2 (detail auto)',
				'',
				'You asked: What are these?\nBe brief.',
			].join('\n'),
		);
	});

	it.each([
		['PNG', asset('pixel-2x3.png'), 'PNG 2x3'],
		['JPEG', asset('grey-4x5.jpg'), 'JPEG 4x5'],
		['GIF', asset('dot-1x1.gif'), 'GIF 1x1'],
		['lossless WEBP', asset('clear-3x2.webp'), 'WEBP 3x2'],
		['lossy WEBP', headers.webpLossy, 'WEBP 7x9'],
		['extended WEBP', headers.webpExtended, 'WEBP 320x200'],
		['progressive JPEG after an APP0 segment', headers.jpegProgressive, 'JPEG 800x600'],
	])('reads a %s data URI', async (_format, bytes, expected) => {
		const reply = await vision([image(dataUri(bytes))]);
		expect(reply.json.choices[0].message.content).toBe(`Image 1: ${expected}`);
	});

	it('goes by the bytes when the declared MIME type disagrees', async () => {
		const reply = await vision([image(dataUri(asset('pixel-2x3.png'), 'image/jpeg'))]);
		expect(reply.json.choices[0].message.content).toBe('Image 1: PNG 2x3');
	});

	it('reads only the last user message, and answers its text alone when it has no image', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'vision-1',
			messages: [
				{ role: 'user', content: [image('https://example.com/old.png')] },
				{ role: 'assistant', content: 'Seen.' },
				{ role: 'user', content: 'And now?' },
			],
		});
		expect(reply.status).toBe(200);
		expect(reply.json.choices[0].message.content).toBe('You asked: And now?');
	});

	it('cuts to max_tokens and streams the same text', async () => {
		const content = [{ type: 'text', text: 'one two three' }, image(dataUri(asset('dot-1x1.gif')))];
		const cut = await vision(content, { max_tokens: 3 });
		expect(cut.json.choices[0].message.content).toBe('Image 1: GIF');
		expect(cut.json.choices[0].finish_reason).toBe('length');

		const whole = await vision(content);
		const streamed = await vision(content, { stream: true });
		expect(joinDeltas(streamChunks(streamed.text).chunks)).toBe(
			whole.json.choices[0].message.content,
		);
	});
});

describe('vision-1 image errors', () => {
	function expectImageError(
		reply: Reply,
		code: string,
		message: RegExp,
		param = 'messages[0].content[0]',
	): void {
		expectInvalidRequest(reply, param, message, code);
	}

	it('rejects data that is not an image', async () => {
		expectImageError(
			await vision([image(dataUri(Buffer.from('hello, not an image'), 'image/png'))]),
			'invalid_image',
			/the data is not a supported image \(PNG, JPEG, GIF or WEBP\)/,
		);
	});

	it('rejects a fetched file that is not an image', async () => {
		expectImageError(
			await vision([image(`${service().origin}/__assets/not-an-image.txt`)]),
			'invalid_image',
			/__assets\/not-an-image\.txt is not a supported image/,
		);
	});

	it('rejects data URIs that are not base64, or not valid base64', async () => {
		expectImageError(
			await vision([image('data:image/png,rawtext')]),
			'invalid_image',
			/data:<mime type>;base64,<data>/,
		);
		expectImageError(
			await vision([image('data:image/png;base64,***')]),
			'invalid_image',
			/not valid base64/,
		);
	});

	it('fetches only from 127.0.0.1 and localhost', async () => {
		const reply = await vision([
			{ type: 'text', text: 'Look' },
			image('https://example.com/cat.png'),
		]);
		expectImageError(
			reply,
			'invalid_image_url',
			/cannot fetch images from example\.com in the local service/,
			'messages[0].content[1]',
		);
	});

	it('says why a fetch failed, and rejects other schemes', async () => {
		expectImageError(
			await vision([image(`${service().origin}/__assets/missing.png`)]),
			'invalid_image_url',
			/answered HTTP 404/,
		);
		expectImageError(
			await vision([image('ftp://127.0.0.1/cat.png')]),
			'invalid_image_url',
			/http\(s\) URLs or data URIs/,
		);
		expectImageError(await vision([image('cat.png')]), 'invalid_image_url', /neither a URL/);
		expectImageError(
			await vision([image(`http://127.0.0.1:${await closedPort()}/cat.png`)]),
			'invalid_image_url',
			/could not fetch .*ECONNREFUSED/,
		);
	});

	it('accepts detail auto, low or high only', async () => {
		const reply = await vision([image(dataUri(asset('dot-1x1.gif')), 'ultra')]);
		expect(reply.status).toBe(400);
		expect(reply.json.error.param).toBe('messages[0].content[0].image_url.detail');
	});
});

describe('models without image input', () => {
	it.each([
		[keys.default, 'echo-1'],
		[keys.premium, 'echo-pro'],
		[keys.default, 'think-1'],
		[keys.default, 'think-inline-1'],
		[keys.default, 'tools-1'],
	])('%#: %s rejects any image_url part, naming the part', async (key, model) => {
		const reply = await chat(service(), key, {
			model,
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{
					role: 'user',
					content: [{ type: 'text', text: 'Describe' }, image(dataUri(asset('pixel-2x3.png')))],
				},
			],
		});
		expect(reply.status).toBe(400);
		expect(reply.text).toBe(
			JSON.stringify({
				error: {
					message: `The model \`${model}\` does not support image input`,
					type: 'invalid_request_error',
					param: 'messages[1].content[1]',
					code: 'model_not_supported',
				},
			}),
		);
	});

	it('rejects images in earlier messages too, even ones vision-1 could not read', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: [
				{ role: 'user', content: [image('https://example.com/cat.png')] },
				{ role: 'user', content: 'Hello' },
			],
		});
		expect(reply.status).toBe(400);
		expect(reply.json.error.param).toBe('messages[0].content[0]');
	});
});
