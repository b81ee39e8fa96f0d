import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { checkEveryRequestConforms } from '../support/conformance.cts';
import { dataUri, placeholderOf, pngHeader } from '../support/images.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

checkEveryRequestConforms(service);

const binaryItem = (bytes: Buffer, mimeType: string, fileName: string) => ({
	json: {},
	binary: { data: { data: bytes.toString('base64'), mimeType, fileName } },
});

describe('images reach the model from every source', () => {
	test('a URL, a data URI and a binary property, several in one message', async () => {
		const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('What do you see?', 'vision-1', {
				withImages: true,
				imageUrls: `${service().origin}/__assets/pixel-2x3.png\n${dataUri(pngHeader(7, 9))}`,
				imageBinaryProperties: 'data',
				imageDetail: 'high',
			}),
			items: [binaryItem(pngHeader(640, 480), 'image/png', 'photo.png')],
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.content).toBe(
			'Image 1: PNG 2x3 (detail high)\nImage 2: PNG 7x9 (detail high)\nImage 3: PNG 640x480 (detail high)\n\nYou asked: What do you see?',
		);
	});

	test('message rows carry images on user rows', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: {
				model: { __rl: true, mode: 'id', value: 'vision-1' },
				promptType: 'messages',
				messages: {
					values: [
						{ role: 'system', content: 'Be precise.' },
						{
							role: 'user',
							content: 'Which format?',
							withImages: true,
							imageBinaryProperties: 'data',
						},
					],
				},
			},
			items: [binaryItem(pngHeader(3, 3), 'image/png', 'a.png')],
		});
		expect(outputs[0][0].json.content).toBe('Image 1: PNG 3x3\n\nYou asked: Which format?');
	});

	test('bad images fail their own item before anything is sent, naming field, item and fix', async () => {
		const pdf = Buffer.from('%PDF-1.7 not an image');
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Describe', 'vision-1', {
				withImages: true,
				imageBinaryProperties: '={{ $json.property }}',
			}),
			items: [
				{ ...binaryItem(pdf, 'image/png', 'scan.pdf'), json: { property: 'data' } },
				{ ...binaryItem(pngHeader(1, 1), 'image/png', 'ok.png'), json: { property: 'image' } },
				{ ...binaryItem(pngHeader(1, 1), 'image/png', 'ok.png'), json: { property: 'data' } },
			],
			settings: { onError: 'continueRegularOutput' },
		});
		const errors = outputs[0].map((item) => item.json.error ?? item.json.content);
		expect(errors).toEqual([
			'Image Binary Properties: binary property "data" (scan.pdf) is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name) (item 0)',
			'Image Binary Properties: the item has no binary property "image" (it has: data) (item 1)',
			'Image 1: PNG 1x1\n\nYou asked: Describe',
		]);
		expect((outputs[0][1].json.error_details as IDataObject).description).toMatch(
			/binary properties/,
		);
		expect(await service().requests()).toHaveLength(1);
	});

	test('a model without image support is refused by the service with its message', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Describe', 'echo-1', {
				withImages: true,
				imageUrls: `${service().origin}/__assets/pixel-2x3.png`,
			}),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0][0].json.error).toBe(
			'The service rejected the request: The model `echo-1` does not support image input (item 0)',
		);
	});

	test('with the Images switch off (node version 1.1), image fields are not sent', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Describe', 'vision-1', {
				imageUrls: `${service().origin}/__assets/pixel-2x3.png`,
			}),
			items: jsonItems({}),
		});
		expect(outputs[0][0].json.content).toBe('You asked: Describe');
		const [request] = await service().requests();
		expect((request.body as { messages: unknown }).messages).toEqual([
			{ role: 'user', content: 'Describe' },
		]);
	});

	test('a workflow saved as node version 1, before the switch, still sends its images (Simple and rows)', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const simple = await engine.runNode({
			type: NODE_TYPE,
			typeVersion: 1,
			parameters: simpleParameters('What do you see?', 'vision-1', {
				imageUrls: `${service().origin}/__assets/pixel-2x3.png`,
			}),
			items: jsonItems({}),
		});
		expect(simple.outputs[0][0].json.content).toBe(
			'Image 1: PNG 2x3\n\nYou asked: What do you see?',
		);
		const rows = await engine.runNode({
			type: NODE_TYPE,
			typeVersion: 1,
			parameters: {
				model: { __rl: true, mode: 'id', value: 'vision-1' },
				promptType: 'messages',
				messages: {
					values: [{ role: 'user', content: 'Which format?', imageBinaryProperties: 'data' }],
				},
			},
			items: [binaryItem(pngHeader(3, 3), 'image/png', 'a.png')],
		});
		expect(rows.outputs[0][0].json.content).toBe('Image 1: PNG 3x3\n\nYou asked: Which format?');
	});

	test('image URLs are one per line; a comma inside a URL is part of it', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Two', 'vision-1', {
				withImages: true,
				imageUrls: `  ${service().origin}/__assets/pixel-2x3.png?a=1,2  \r\n\n${service().origin}/__assets/grey-4x5.jpg\n`,
			}),
			items: jsonItems({}),
		});
		expect(outputs[0][0].json.content).toBe(
			'Image 1: PNG 2x3\nImage 2: JPEG 4x5\n\nYou asked: Two',
		);
		const [request] = await service().requests();
		const { messages } = request.body as {
			messages: Array<{ content: Array<{ image_url?: { url: string } }> }>;
		};
		const parts = messages[0].content;
		expect(parts.flatMap((part) => (part.image_url ? [part.image_url.url] : []))).toEqual([
			`${service().origin}/__assets/pixel-2x3.png?a=1,2`,
			`${service().origin}/__assets/grey-4x5.jpg`,
		]);
	});
});

/** vision-1 on the item's `messages` (Prompt: JSON), as the next turn of a conversation. */
const fromItemMessages = (options: INodeParameters = {}): INodeParameters => ({
	model: { __rl: true, mode: 'id', value: 'vision-1' },
	promptType: 'json',
	messagesJson: '={{ $json.messages }}',
	options,
});

/** The image URLs of every image part the service received, request by request. */
async function sentImageUrls(): Promise<string[][]> {
	const requests = await service().requests();
	return requests.map((request) => {
		const { messages } = request.body as {
			messages: Array<{ content: string | Array<{ image_url?: { url: string } }> }>;
		};
		return messages.flatMap(({ content }) =>
			Array.isArray(content) ? content.flatMap((part) => part.image_url?.url ?? []) : [],
		);
	});
}

describe('images in the output item: placeholders in messages, the bytes in binary data', () => {
	afterEach(async () => {
		// Whatever a test did, the service never received a placeholder.
		expect(JSON.stringify(await service().requests())).not.toContain('n8n-binary:');
	});

	test('a 5 MB binary image: the item stays a few KB, its messages name the binary property that goes on with it', async () => {
		const photo = Buffer.concat([pngHeader(4000, 3000), Buffer.alloc(5 * 1024 * 1024)]);
		const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('What do you see?', 'vision-1', {
				withImages: true,
				imageBinaryProperties: 'data',
			}),
			items: [binaryItem(photo, 'image/png', 'photo.png')],
		});
		expect(error).toBeUndefined();
		const [item] = outputs[0];
		expect(item.json.content).toBe('Image 1: PNG 4000x3000\n\nYou asked: What do you see?');
		expect(JSON.stringify(item.json).length).toBeLessThan(2048);
		expect((item.json.messages as IDataObject[])[0]).toEqual({
			role: 'user',
			content: [
				{ type: 'text', text: 'What do you see?' },
				{ type: 'image_url', image_url: { url: placeholderOf('data', photo) } },
			],
		});
		expect(item.binary?.data).toMatchObject({ fileName: 'photo.png', mimeType: 'image/png' });
		expect(await sentImageUrls()).toEqual([[dataUri(photo)]]);
	}, 60_000);

	test('a data URI becomes binary data under a name the item does not have; a public URL stays', async () => {
		const url = `${service().origin}/__assets/pixel-2x3.png`;
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Two', 'vision-1', {
				withImages: true,
				imageUrls: `${url}\n${dataUri(pngHeader(7, 9))}`,
				imageDetail: 'low',
			}),
			items: [{ json: {}, binary: binaryItem(pngHeader(1, 1), 'image/png', 'a.png').binary }],
		});
		const [item] = outputs[0];
		expect(item.json.content).toBe(
			'Image 1: PNG 2x3 (detail low)\nImage 2: PNG 7x9 (detail low)\n\nYou asked: Two',
		);
		const parts = (item.json.messages as Array<{ content: IDataObject[] }>)[0].content;
		expect(parts.slice(1)).toEqual([
			{ type: 'image_url', image_url: { url, detail: 'low' } },
			{
				type: 'image_url',
				image_url: { url: placeholderOf('image_1', pngHeader(7, 9)), detail: 'low' },
			},
		]);
		expect(Object.keys(item.binary ?? {})).toEqual(['data', 'image_1']);
		expect(item.binary?.image_1).toMatchObject({ fileName: 'image_1.png', mimeType: 'image/png' });

		// An item that has image_1 already gets image_2.
		const taken = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('One', 'vision-1', {
				withImages: true,
				imageUrls: dataUri(pngHeader(7, 9)),
			}),
			items: [
				{
					json: {},
					binary: { image_1: binaryItem(pngHeader(1, 1), 'image/png', 'x.png').binary.data },
				},
			],
		});
		expect(Object.keys(taken.outputs[0][0].binary ?? {})).toEqual(['image_1', 'image_2']);
	});

	test('the next turn resolves the placeholders from the binary data and sends the same bytes', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const first = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Compare', 'vision-1', {
				withImages: true,
				imageUrls: dataUri(pngHeader(7, 9)),
				imageBinaryProperties: 'data',
			}),
			items: [binaryItem(pngHeader(640, 480), 'image/png', 'photo.png')],
		});
		const second = await engine.runNode({
			type: NODE_TYPE,
			parameters: fromItemMessages(),
			items: first.outputs[0],
		});
		expect(second.error).toBeUndefined();
		const reply = 'Image 1: PNG 7x9\nImage 2: PNG 640x480\n\nYou asked: Compare';
		expect(first.outputs[0][0].json.content).toBe(reply);
		expect(second.outputs[0][0].json.content).toBe(reply);
		const [sentFirst, sentSecond] = await sentImageUrls();
		expect(sentFirst).toEqual([dataUri(pngHeader(7, 9)), dataUri(pngHeader(640, 480))]);
		expect(sentSecond).toEqual(sentFirst);
		// The second turn's conversation keeps the placeholders, and its item the binary data.
		const { messages } = second.outputs[0][0].json as { messages: Array<{ content: unknown }> };
		expect(JSON.stringify(messages[0].content)).toContain('n8n-binary:image_1');
		expect(Object.keys(second.outputs[0][0].binary ?? {})).toEqual(['data', 'image_1']);
	});

	test("a new image in the property an earlier turn's image came from fails that item; a hand-written placeholder takes what is there", async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const first = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Describe', 'vision-1', {
				withImages: true,
				imageBinaryProperties: 'data',
			}),
			items: [binaryItem(pngHeader(640, 480), 'image/png', 'photo.png')],
		});
		const [answered] = first.outputs[0];
		const next = binaryItem(pngHeader(30, 20), 'image/png', 'next.png').binary;
		const handWritten = [
			{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'n8n-binary:data' } }] },
		];
		const second = await engine.runNode({
			type: NODE_TYPE,
			parameters: fromItemMessages(),
			items: [
				{ ...answered, binary: next },
				{ json: { messages: handWritten }, binary: next },
			],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(second.outputs[0].map((item) => item.json.error ?? item.json.content)).toEqual([
			'Messages (JSON): messages[0].content[1] is the image of 33 bytes that binary property "data" held when the conversation was written, but "data" now holds another file (next.png, 33 bytes); it is not sent in its place (item 0)',
			'Image 1: PNG 30x20',
		]);
		// The first turn's request and the hand-written one: the 640x480 image went once, the new one once.
		expect(await sentImageUrls()).toEqual([
			[dataUri(pngHeader(640, 480))],
			[dataUri(pngHeader(30, 20))],
		]);
	});

	test('a placeholder naming binary data the item lacks fails that item before sending, the others go on', async () => {
		const messages = [
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'Describe' },
					{ type: 'image_url', image_url: { url: 'n8n-binary:data' } },
				],
			},
		];
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: fromItemMessages(),
			items: [
				{ json: { messages }, binary: binaryItem(pngHeader(1, 1), 'image/png', 'a.png').binary },
				{
					json: { messages },
					binary: { photo: binaryItem(pngHeader(2, 2), 'image/png', 'b.png').binary.data },
				},
				{ json: { messages } },
			],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0].map((item) => item.json.error ?? item.json.content)).toEqual([
			'Image 1: PNG 1x1\n\nYou asked: Describe',
			'Messages (JSON): messages[0].content[1] is the image "n8n-binary:data", but the item has no binary property "data" (it has: photo) (item 1)',
			'Messages (JSON): messages[0].content[1] is the image "n8n-binary:data", but the item has no binary property "data" (it has no binary data) (item 2)',
		]);
		expect((outputs[0][1].json.error_details as IDataObject).description).toMatch(
			/keep that binary data on the item/,
		);
		expect(await service().requests()).toHaveLength(1);
	});

	test('a placeholder is checked like a binary image: size limit and the bytes', async () => {
		const messages = [
			{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'n8n-binary:data' } }] },
		];
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: fromItemMessages({ maxImageSize: 1 }),
			items: [
				{
					...binaryItem(Buffer.from('%PDF-1.7 not an image'), 'image/png', 'scan.pdf'),
					json: { messages },
				},
				{
					...binaryItem(
						Buffer.concat([pngHeader(9, 9), Buffer.alloc(2 * 1024 * 1024)]),
						'image/png',
						'big.png',
					),
					json: { messages },
				},
			],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0].map((item) => item.json.error)).toEqual([
			'Messages (JSON): binary property "data" (scan.pdf) is not a PNG, JPEG, GIF or WEBP image (checked the bytes, not only the name) (item 0)',
			'Messages (JSON): binary property "data" (big.png) is 2.0 MB, above the limit of 1.0 MB (item 1)',
		]);
		expect(await service().requests()).toHaveLength(0);
	});
});
