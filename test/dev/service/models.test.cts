import { keys, useLocalService, faultModels } from '../../support/service.cts';
import { chat, getModels, hello } from './client.cts';

const service = useLocalService();

const defaultModels = [
	'echo-1',
	'think-1',
	'think-inline-1',
	'vision-1',
	'tools-1',
	'think-tools-1',
	'json-1',
];

describe('GET /v1/models', () => {
	it.each([
		['default', defaultModels],
		[
			'premium',
			[
				'echo-1',
				'think-1',
				'think-inline-1',
				'echo-pro',
				'vision-1',
				'tools-1',
				'think-tools-1',
				'json-1',
			],
		],
		['rag', ['echo-1', 'tools-1', 'embed-1', 'rerank-1']],
		['media', ['echo-1', 'vision-1', 'image-1', 'whisper-local', 'tts-local']],
		['faults', ['echo-1', ...faultModels]],
		['broke', defaultModels],
	] as const)('lists exactly the models of the %s key', async (name, expected) => {
		const reply = await getModels(service(), keys[name]);
		expect(reply.status).toBe(200);
		expect(reply.json.object).toBe('list');
		expect(reply.json.data.map((model: { id: string }) => model.id)).toEqual(expected);
		for (const model of reply.json.data) {
			expect(model).toEqual({
				id: expect.any(String),
				object: 'model',
				created: expect.any(Number),
				owned_by: expect.any(String),
			});
		}
	});
});

describe('model_not_found', () => {
	it('is a 403 for a known model outside the key group', async () => {
		const reply = await chat(service(), keys.default, { model: 'echo-pro', messages: hello });
		expect(reply.status).toBe(403);
		expect(reply.json.error).toMatchObject({
			type: 'invalid_request_error',
			code: 'model_not_found',
		});
		expect(reply.json.error.message).toBe(
			'The model `echo-pro` is not available to your token group `default`',
		);
	});

	it('is a 403 for a fault model called with a default key', async () => {
		const reply = await chat(service(), keys.default, { model: 'fault-500', messages: hello });
		expect(reply.status).toBe(403);
		expect(reply.json.error.code).toBe('model_not_found');
	});

	it('is a 404 for a model that does not exist', async () => {
		const reply = await chat(service(), keys.premium, {
			model: 'gpt-nonexistent',
			messages: hello,
		});
		expect(reply.status).toBe(404);
		expect(reply.json.error).toMatchObject({
			type: 'invalid_request_error',
			code: 'model_not_found',
		});
		expect(reply.json.error.message).toBe('The model `gpt-nonexistent` does not exist');
	});

	it('lets the premium key call echo-pro', async () => {
		const reply = await chat(service(), keys.premium, { model: 'echo-pro', messages: hello });
		expect(reply.status).toBe(200);
		expect(reply.json.model).toBe('echo-pro-2026-11-01');
	});
});
