/** The local service's image endpoints: generations (JSON) and edits (multipart), their images, checks and knobs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { loggedFile, readPng, sha } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import {
	chat,
	expectInvalidRequest,
	expectModelRefused,
	formOf,
	generateImages,
	hello,
	postForm,
	send,
	withService,
} from './client.cts';

const service = useLocalService();

const asset = (name: string) =>
	readFileSync(join(__dirname, '..', '..', '..', 'dev', 'service', 'assets', name));
const pixel = asset('pixel-2x3.png');
const grey = asset('grey-4x5.jpg');
const clear = asset('clear-3x2.webp');
/** A PNG of `width` x `height` as far as its header goes (the fixture with IHDR's size and CRC changed): a mask. */
function pngOfSize(width: number, height: number): Buffer {
	const png = Buffer.from(pixel);
	png.writeUInt32BE(width, 16);
	png.writeUInt32BE(height, 20);
	png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
	return png;
}
const mask = pngOfSize(4, 5);

const generate = (body: Record<string, unknown>, key = keys.media) =>
	generateImages(service(), key, { model: 'image-1', prompt: 'a red fox', ...body });

const edit = (
	fields: Record<string, string>,
	files: Array<[string, Buffer, string, string]>,
	key = keys.media,
) => postForm(service(), '/images/edits', key, formOf({ model: 'image-1', ...fields }, files));

const pngOf = (entry: { b64_json: string }) => readPng(Buffer.from(entry.b64_json, 'base64'));

describe('POST /v1/images/generations', () => {
	it('answers n PNGs as b64_json, each saying what it was made from, with the revised prompt', async () => {
		const reply = await generate({ n: 2, size: '1024x1536' });
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			created: expect.any(Number),
			data: [
				{ b64_json: expect.any(String), revised_prompt: 'a red fox, in flat colours' },
				{ b64_json: expect.any(String), revised_prompt: 'a red fox, in flat colours' },
			],
		});
		const [first, second] = reply.json.data.map(pngOf);
		expect(first).toEqual({
			width: 16,
			height: 24,
			text: { prompt: 'a red fox', image: '1 of 2', size: '1024x1536' },
		});
		expect(second.text.image).toBe('2 of 2');
	});

	it('defaults to one 1024x1024 image (16x16 pixels)', async () => {
		const reply = await generate({});
		expect(reply.json.data).toHaveLength(1);
		expect(pngOf(reply.json.data[0])).toMatchObject({ width: 16, height: 16 });
	});

	it.each([
		['jpeg', [0xff, 0xd8, 0xff]],
		['webp', [0x52, 0x49, 0x46, 0x46]],
	])('answers output_format %s with such bytes', async (format, signature) => {
		const reply = await generate({ output_format: format });
		const bytes = Buffer.from(reply.json.data[0].b64_json, 'base64');
		expect([...bytes.subarray(0, signature.length)]).toEqual(signature);
	});

	it('answers url with an image this service serves without a key, and records that request', async () => {
		const reply = await generate({ response_format: 'url' });
		const { url, revised_prompt } = reply.json.data[0];
		expect(revised_prompt).toBe('a red fox, in flat colours');
		expect(url).toMatch(new RegExp(`^${service().origin}/__images/[0-9a-f-]+\\.png$`));
		const image = await send(url);
		expect(image.status).toBe(200);
		expect(image.headers.get('content-type')).toBe('image/png');
		expect(readPng(image.bytes).text.prompt).toBe('a red fox');
		const fetched = (await service().requests()).at(-1);
		expect(fetched).toMatchObject({ method: 'GET', path: new URL(url).pathname });
		expect(fetched?.headers.authorization).toBeUndefined();
		expect((await send(`${service().origin}/__images/none.png`)).status).toBe(404);
	});

	it('answers url at the path url_path gives (a file gone: 404 with its query kept in the URL)', async () => {
		const reply = await generate({
			response_format: 'url',
			x_local: { url_path: '/__images/gone.png?sig=abc' },
		});
		const { url } = reply.json.data[0];
		expect(url).toBe(`${service().origin}/__images/gone.png?sig=abc`);
		expect((await send(url)).status).toBe(404);
		expectInvalidRequest(
			await generate({ response_format: 'url', x_local: { url_path: 'gone.png' } }),
			'x_local.url_path',
			/^'x_local\.url_path' must be a path that starts with \//,
		);
	});

	it('serves /__images/large/<bytes>.png as that many bytes that begin as a PNG, read as they come', async () => {
		const size = 5 * 1024 * 1024 + 3;
		const response = await fetch(`${service().origin}/__images/large/${size}.png`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('image/png');
		let received = 0;
		let start: Buffer | undefined;
		for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
			start ??= Buffer.from(piece.subarray(0, 8));
			received += piece.length;
		}
		expect(received).toBe(size);
		expect(start?.toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
		expect((await send(`${service().origin}/__images/large/1.png`)).status).toBe(404);
	});

	it('answers /__images/large with 503 to the first fail_first requests of an id', async () => {
		const url = `${service().origin}/__images/large/100.png?fail_first=2&id=${Math.random()}`;
		expect((await send(url)).status).toBe(503);
		expect((await send(url)).status).toBe(503);
		expect((await send(url)).status).toBe(200);
	});

	it('answers url on the other origin with other_origin', async () => {
		const reply = await generate({ response_format: 'url', x_local: { other_origin: true } });
		const { url } = reply.json.data[0];
		expect(new URL(url).hostname).toBe('localhost');
		expect((await send(url)).status).toBe(200);
	});

	it.each([
		[
			'no prompt',
			{ prompt: undefined },
			'prompt',
			/^'prompt' must be a non-empty string, got nothing/,
		],
		['an empty prompt', { prompt: '' }, 'prompt', /^'prompt' must be a non-empty string/],
		['n 0', { n: 0 }, 'n', /^'n' must be an integer from 1 to 10, got number 0/],
		['n 11', { n: 11 }, 'n', /^'n' must be an integer from 1 to 10/],
		[
			'a size that is no size',
			{ size: 'big' },
			'size',
			/^'size' must be 'auto' or '<width>x<height>'/,
		],
		['a size not a multiple of 64', { size: '1000x1000' }, 'size', /multiple of 64/],
		[
			'response_format json',
			{ response_format: 'json' },
			'response_format',
			/^Invalid value for 'response_format': 'json'. Supported values are: 'b64_json', 'url'./,
		],
		[
			'output_format gif',
			{ output_format: 'gif' },
			'output_format',
			/^Invalid value for 'output_format'/,
		],
		['an unknown field', { seed: 1 }, 'seed', /^Unrecognized request argument supplied: seed/],
		['an unknown knob', { x_local: { paint: true } }, 'x_local', /unknown field paint/],
	])('refuses %s with a 400 naming the field', async (_name, body, param, message) => {
		expectInvalidRequest(await generate(body), param, message);
	});

	it('refuses a chat model with a 400 naming it; unknown model 404, outside the group 403, bad key 401', async () => {
		const chatModel = await generate({ model: 'echo-1' });
		expectModelRefused(chatModel, 400, 'The model `echo-1` does not support image generation');
		expect(chatModel.json.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
		expect((await generate({ model: 'image-9' })).status).toBe(404);
		expect((await generate({}, keys.default)).json.error.code).toBe('model_not_found');
		expect((await generate({}, keys.default)).status).toBe(403);
		expect((await generate({}, 'sk-example-wrong-0000')).status).toBe(401);
	});

	it('image-1 asked to chat without image modalities answers text', async () => {
		const reply = await chat(service(), keys.media, { model: 'image-1', messages: hello });
		expect(reply.json.choices[0].message).toEqual({
			role: 'assistant',
			content: 'Hello there, world',
		});
	});

	it('knobs: content_policy, no_images, fail_first (429 with Retry-After, then 200)', async () => {
		const refused = await generate({ x_local: { content_policy: true } });
		expect(refused.status).toBe(400);
		expect(refused.json.error).toMatchObject({
			code: 'content_policy_violation',
			message: expect.stringMatching(/rejected as a result of the safety system/),
		});
		const empty = await generate({ x_local: { no_images: true } });
		expect(empty.status).toBe(200);
		expect(empty.json.data).toEqual([]);
		const x_local = { fail_first: { id: 'img', count: 1, status: 429, retry_after: '2' } };
		const limited = await generate({ x_local });
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('2');
		expect((await generate({ x_local })).status).toBe(200);
		const failing = await generate({
			x_local: { fail_first: { id: 'img5', count: 1, status: 503 } },
		});
		expect(failing.status).toBe(503);
	});

	it('knob images: N images whatever n asked', async () => {
		expect((await generate({ n: 3, x_local: { images: 1 } })).json.data).toHaveLength(1);
		expect((await generate({ n: 1, x_local: { images: 3 } })).json.data).toHaveLength(3);
	});

	it("is under the key's rate limit like chat", async () => {
		await withService(['--rate-limit', 'media=1/60s'], async (limited) => {
			const body = { model: 'image-1', prompt: 'a fox' };
			expect((await generateImages(limited, keys.media, body)).status).toBe(200);
			const refused = await generateImages(limited, keys.media, body);
			expect(refused.status).toBe(429);
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		});
	});
});

describe('POST /v1/images/edits', () => {
	it('answers a PNG made from the images in the order sent and the mask, drawn at the first image size', async () => {
		const reply = await edit({ prompt: 'add a hat', n: '2' }, [
			['image[]', grey, 'grey.jpg', 'image/jpeg'],
			['image[]', clear, 'clear.webp', 'image/webp'],
			['mask', mask, 'mask.png', 'image/png'],
		]);
		expect(reply.status).toBe(200);
		expect(reply.json.data).toHaveLength(2);
		const image = pngOf(reply.json.data[0]);
		expect(image).toEqual({
			width: 4,
			height: 5,
			text: {
				prompt: 'add a hat',
				image: '1 of 2',
				inputs: `image[0]: JPEG 4x5 sha256:${sha(grey)}; image[1]: WEBP 3x2 sha256:${sha(clear)}`,
				mask: `PNG 4x5 sha256:${sha(mask)}`,
			},
		});
		expect(reply.json.data[0].revised_prompt).toBe('add a hat, in flat colours');
	});

	it('takes one image as `image`, and a size', async () => {
		const reply = await edit({ prompt: 'p', size: '256x128' }, [
			['image', pixel, 'p.png', 'image/png'],
		]);
		expect(pngOf(reply.json.data[0])).toMatchObject({
			width: 4,
			height: 2,
			text: { inputs: `image[0]: PNG 2x3 sha256:${sha(pixel)}`, mask: 'none' },
		});
	});

	it('records the parts: text fields with their value, files with name, type, size and digest', async () => {
		await edit({ prompt: 'p' }, [['image[]', pixel, 'p.png', 'image/png']]);
		const [request] = await service().requests();
		expect(request.path).toBe('/v1/images/edits');
		expect(request.body).toEqual([
			loggedFile('image[]', 'p.png', 'image/png', pixel),
			{ name: 'model', value: 'image-1' },
			{ name: 'prompt', value: 'p' },
		]);
	});

	it('reads knobs from an x_local text field holding JSON', async () => {
		const files: Array<[string, Buffer, string, string]> = [['image', pixel, 'p.png', 'image/png']];
		const refused = await edit({ prompt: 'p', x_local: '{"content_policy": true}' }, files);
		expect(refused.json.error.code).toBe('content_policy_violation');
		expectInvalidRequest(
			await edit({ prompt: 'p', x_local: 'yes' }, files),
			'x_local',
			/JSON text of an object/,
		);
	});

	it.each<
		[string, Record<string, string>, Array<[string, Buffer, string, string]>, string, RegExp]
	>([
		['no image', { prompt: 'p' }, [], 'image', /^'image' must hold 1 to 16 images, got 0/],
		[
			'image and image[] together',
			{ prompt: 'p' },
			[
				['image', pixel, 'a.png', 'image/png'],
				['image[]', pixel, 'b.png', 'image/png'],
			],
			'image',
			/not both/,
		],
		[
			'an image sent without its type',
			{ prompt: 'p' },
			[['image', pixel, 'a.png', 'application/octet-stream']],
			'image[0]',
			/got the type application\/octet-stream and a PNG image/,
		],
		[
			'text sent as an image',
			{ prompt: 'p' },
			[
				['image[]', pixel, 'a.png', 'image/png'],
				['image[]', asset('not-an-image.txt'), 'b.png', 'image/png'],
			],
			'image[1]',
			/bytes that are no image/,
		],
		[
			'a GIF',
			{ prompt: 'p' },
			[['image', asset('dot-1x1.gif'), 'a.gif', 'image/gif']],
			'image[0]',
			/PNG, JPEG or WEBP/,
		],
		[
			'a JPEG mask',
			{ prompt: 'p' },
			[
				['image', grey, 'a.jpg', 'image/jpeg'],
				['mask', grey, 'm.jpg', 'image/jpeg'],
			],
			'mask',
			/must be a PNG image/,
		],
		[
			'a mask of another size',
			{ prompt: 'p' },
			[
				['image', grey, 'a.jpg', 'image/jpeg'],
				['mask', pixel, 'm.png', 'image/png'],
			],
			'mask',
			/size of the first image \(4x5\), got 2x3/,
		],
		[
			'a prompt sent as a file',
			{},
			[
				['image', pixel, 'a.png', 'image/png'],
				['prompt', pixel, 'p.txt', 'text/plain'],
			],
			'prompt',
			/must be a text field, not a file/,
		],
		['an image sent as text', { prompt: 'p', image: 'pixel.png' }, [], 'image', /must be a file/],
		[
			'a field twice',
			{ prompt: 'p' },
			[['image', pixel, 'a.png', 'image/png']],
			'model',
			/was sent more than once/,
		],
		[
			'n 0',
			{ prompt: 'p', n: '0' },
			[['image', pixel, 'a.png', 'image/png']],
			'n',
			/^'n' must be an integer from 1 to 10, got number 0/,
		],
		[
			'an unknown field',
			{ prompt: 'p', seed: '1' },
			[['image', pixel, 'a.png', 'image/png']],
			'seed',
			/^Unrecognized request argument supplied: seed/,
		],
	])('refuses %s with a 400 naming the part', async (name, fields, files, param, message) => {
		const form = formOf({ model: 'image-1', ...fields }, files);
		if (name === 'a field twice') form.append('model', 'image-1');
		expectInvalidRequest(
			await postForm(service(), '/images/edits', keys.media, form),
			param,
			message,
		);
	});

	it.each([
		[
			'JSON',
			'application/json',
			'{"model": "image-1"}',
			/^Content-Type must be multipart\/form-data/,
		],
		['no boundary', 'multipart/form-data', '--x\r\n', /names no boundary/],
		[
			'a body without the boundary',
			'multipart/form-data; boundary=abc',
			'hello',
			/the boundary 'abc' is nowhere in the body/,
		],
		[
			'no closing boundary',
			'multipart/form-data; boundary=abc',
			'--abc\r\nContent-Disposition: form-data; name="model"\r\n\r\nimage-1',
			/ends without its closing boundary/,
		],
		[
			'a part without a name',
			'multipart/form-data; boundary=abc',
			'--abc\r\nContent-Disposition: form-data\r\n\r\nx\r\n--abc--',
			/part 1 has no Content-Disposition: form-data with a name/,
		],
		[
			'headers without a blank line',
			'multipart/form-data; boundary=abc',
			'--abc\r\nContent-Disposition: form-data; name="a"\r\n--abc--',
			/part 1 has no blank line after its headers/,
		],
	])(
		'refuses a body that is not multipart/form-data (%s) with a 400',
		async (_name, type, body, message) => {
			const reply = await send(`${service().baseUrl}/images/edits`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${keys.media}`, 'Content-Type': type },
				body,
			});
			expect(reply.status).toBe(400);
			expect(reply.json.error.message).toMatch(message);
		},
	);

	it('refuses a chat model as generations do', async () => {
		const reply = await edit({ prompt: 'p', model: 'vision-1' }, [
			['image', pixel, 'a.png', 'image/png'],
		]);
		expectModelRefused(reply, 400, 'The model `vision-1` does not support image generation');
	});
});
