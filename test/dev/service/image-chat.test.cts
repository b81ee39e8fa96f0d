/** `image-1` in chat: images in `message.images` as OpenRouter's image models answer `modalities: ["image", "text"]`. */
import { readPng } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import {
	chat,
	expectInvalidRequest,
	expectModelRefused,
	hello,
	joinDeltas,
	streamChunks,
} from './client.cts';

const service = useLocalService();

const ask = (body: Record<string, unknown>) =>
	chat(service(), keys.media, {
		model: 'image-1',
		messages: [{ role: 'user', content: 'draw a cat' }],
		modalities: ['image', 'text'],
		...body,
	});

/** The PNG of an entry of `message.images`, which must be a data URL. */
function imageOf(entry: { type: string; image_url: { url: string } }) {
	expect(entry.type).toBe('image_url');
	const [prefix, data] = entry.image_url.url.split(',');
	expect(prefix).toBe('data:image/png;base64');
	return readPng(Buffer.from(data, 'base64'));
}

test('answers the text and one image as a data URL in message.images', async () => {
	const reply = await ask({});
	expect(reply.status).toBe(200);
	const { message, finish_reason } = reply.json.choices[0];
	expect(finish_reason).toBe('stop');
	expect(message.content).toBe('Here is the image: draw a cat');
	expect(message.images).toHaveLength(1);
	expect(imageOf(message.images[0])).toEqual({
		width: 16,
		height: 16,
		text: { prompt: 'draw a cat', image: '1 of 1', size: '1024x1024' },
	});
});

test('answers as many images as the knob `images` says, and none with 0', async () => {
	const two = (await ask({ x_local: { images: 2 } })).json.choices[0].message;
	expect(two.content).toBe('Here are 2 images: draw a cat');
	expect(two.images.map(imageOf).map((png: { text: { image: string } }) => png.text.image)).toEqual(
		['1 of 2', '2 of 2'],
	);
	const none = (await ask({ x_local: { images: 0 } })).json.choices[0].message;
	expect(none.images).toEqual([]);
});

test('streams the text, then the images in one delta', async () => {
	const reply = await ask({ stream: true, x_local: { images: 2 } });
	const { chunks, done } = streamChunks(reply.text);
	expect(done).toBe(true);
	expect(joinDeltas(chunks)).toBe('Here are 2 images: draw a cat');
	const withImages = chunks.filter((chunk) => chunk.choices[0]?.delta.images !== undefined);
	expect(withImages).toHaveLength(1);
	const lastText = chunks
		.map((chunk) => chunk.choices[0]?.delta.content !== undefined)
		.lastIndexOf(true);
	expect(chunks.indexOf(withImages[0])).toBeGreaterThan(lastText);
	expect(withImages[0].choices[0].delta.images).toHaveLength(2);
});

test('a chat model asked for image output answers OpenRouter-like 404 naming it', async () => {
	for (const model of ['echo-1', 'vision-1']) {
		const reply = await chat(service(), keys.media, {
			model,
			messages: hello,
			modalities: ['image', 'text'],
		});
		expectModelRefused(
			reply,
			404,
			`No endpoints found for \`${model}\` that support the requested output modalities: image, text`,
		);
	}
	const textOnly = await chat(service(), keys.media, {
		model: 'echo-1',
		messages: hello,
		modalities: ['text'],
	});
	expect(textOnly.status).toBe(200);
});

test.each([
	['not an array', 'image', 'modalities', /^'modalities' must be an array/],
	[
		'an unknown modality',
		['image', 'video'],
		'modalities[1]',
		/^Invalid value for 'modalities\[1\]': 'video'/,
	],
])('modalities %s is a 400 naming it', async (_name, modalities, param, message) => {
	expectInvalidRequest(await ask({ modalities }), param, message);
});
