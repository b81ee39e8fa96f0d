import type { IDataObject } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { checkEveryRequestConforms } from '../support/conformance.cts';
import { dataUri, pngHeader } from '../support/images.cts';
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
