/**
 * Chat Completion with an image model that answers in chat (OpenRouter's and Vercel AI Gateway's
 * `message.images`, asked for with `modalities: ["image", "text"]`): the images as binary data of the output
 * item. Not checked against the official request schema, as the other Chat Completion tests are: its
 * `modalities` allows only "text" and "audio", and "image" is the gateways' own value.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

describe('images an image model answers in chat (message.images)', () => {
	const drawn = (stream: boolean, extra: INodeParameters = {}) =>
		engineWith(keys.media, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('a fox', 'image-1', {
				options: {
					outputModalities: 'image,text',
					stream,
					extraBody: '{"x_local": {"images": 2}}',
				},
				...extra,
			}),
			items: [{ json: {} }],
		});

	test.each([
		['a reply read whole', false],
		['a streamed reply', true],
	])(
		'%s: the images become binary data image_1, image_2 named in the JSON, which holds no base64',
		async (_name, stream) => {
			const { outputs, error } = await drawn(stream);
			expect(error).toBeUndefined();
			const [item] = outputs[0];
			expect(item.json.content).toBe('Here are 2 images: a fox');
			expect(item.json.images).toEqual([
				{ binary: 'image_1', mimeType: 'image/png' },
				{ binary: 'image_2', mimeType: 'image/png' },
			]);
			expect(item.binary?.image_1).toMatchObject({
				mimeType: 'image/png',
				fileName: 'image_1.png',
			});
			expect(item.binary?.image_2).toMatchObject({
				mimeType: 'image/png',
				fileName: 'image_2.png',
			});
			expect(JSON.stringify(item.json)).not.toContain('base64');
			const [request] = await service().requests();
			expect((request.body as IDataObject).modalities).toEqual(['image', 'text']);
		},
	);

	test('the raw response names the binary data too', async () => {
		const { outputs } = await drawn(false, { simplify: false });
		const [item] = outputs[0];
		const message = ((item.json.choices as IDataObject[])[0] as IDataObject).message as IDataObject;
		expect(message.images).toEqual([
			{ binary: 'image_1', mimeType: 'image/png' },
			{ binary: 'image_2', mimeType: 'image/png' },
		]);
		expect(JSON.stringify(item.json)).not.toContain('base64');
	});

	test('Output Modalities not added: nothing is sent, and a text reply has no images', async () => {
		const { outputs } = await engineWith(keys.media, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('a fox', 'image-1'),
			items: [{ json: {} }],
		});
		expect(outputs[0][0].json.images).toBeUndefined();
		expect(outputs[0][0].binary).toBeUndefined();
		const [request] = await service().requests();
		expect((request.body as IDataObject).modalities).toBeUndefined();
	});
});
