/**
 * Options > Fallback Models in the Chat Completion node, through n8n-core's engine against the local
 * service's `fallback` key: each failure another model may not share moves on to the next model; each
 * failure every model would share ends the item at once.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	runOneItem,
	simpleParameters,
} from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

/** No retries unless a case asks: these tests count requests. */
const QUIET = { maxRetries: 0, maxRateLimitWait: 0 };

async function runOne(parameters: INodeParameters, apiKey = keys.fallback) {
	return await runOneItem(apiKey, service().baseUrl, parameters);
}

/** The models the service was asked for, in order. */
async function modelsAsked(): Promise<string[]> {
	return (await service().requests())
		.filter((request) => request.path.endsWith('/chat/completions'))
		.map((request) => (request.body as IDataObject).model as string);
}

const city = JSON.stringify({
	type: 'object',
	properties: { city: { type: 'string' } },
	required: ['city'],
});
const toolRows = {
	toolsMode: 'define',
	tools: { values: [{ name: 'weather', description: 'Weather in a city', parameters: city }] },
};
const image = () => ({ withImages: true, imageUrls: `${service().origin}/__assets/pixel-2x3.png` });

describe('a failure another model may not share moves on to the next model', () => {
	test.each([
		['404: the model does not exist', 'no-such-model', {}, {}, /does not exist on this service/, 1],
		[
			'404 without model_not_found: Ollama\'s "not found, try pulling it first"',
			'fault-404-not-pulled',
			{},
			{},
			/does not exist|no such endpoint under .* \(404\)/,
			1,
		],
		["403: the key's group cannot call it", 'echo-pro', {}, {}, /not available to this API key/, 1],
		['503 one-api "no channel"', 'fault-503-one-api-no-channel', {}, {}, /no channel for it/, 1],
		[
			'503 new-api model_not_found',
			'fault-503-model-not-found',
			{},
			{},
			/not available to this API key/,
			1,
		],
		[
			'the rate limit wait ran out (Max Wait on Rate Limit)',
			'fault-429-wait',
			{ maxRateLimitWait: 1000 },
			{},
			/longer than Options > Max Wait on Rate Limit/,
			1,
		],
		[
			'a server error after the retries',
			'fault-500',
			{ maxRetries: 1 },
			{},
			/failed while answering \(500\), after 2 attempts/,
			2,
		],
		['an error inside a 200', 'fault-200-error', {}, {}, /inside a successful \(200\) response/, 1],
		[
			'a timeout',
			'fault-timeout',
			{ timeout: 1000 },
			{},
			/did not answer within the Timeout of 1000 ms/,
			1,
		],
	])('%s', async (_name, first, options, extra, failure, firstRequests) => {
		const json = await runOne(
			simpleParameters('Hello there', first, {
				...extra,
				options: { ...QUIET, ...options, fallbackModels: 'echo-1' },
			}),
		);
		expect(json.content).toBe('Hello there');
		expect(json.model).toMatch(/^echo-1-/);
		expect(json.attempts).toEqual([{ model: first, error: expect.stringMatching(failure) }]);
		expect(await modelsAsked()).toEqual([...Array(firstRequests).fill(first), 'echo-1']);
	});

	test('a 400 for images the model cannot see: the fallback gets the same images', async () => {
		const json = await runOne(
			simpleParameters('What do you see?', 'echo-1', {
				...image(),
				options: { ...QUIET, fallbackModels: 'vision-1' },
			}),
		);
		expect(json.content).toBe('Image 1: PNG 2x3\n\nYou asked: What do you see?');
		expect(json.attempts).toEqual([
			{ model: 'echo-1', error: expect.stringMatching(/does not support image input/) },
		]);
		const [first, second] = await service().requests();
		expect((second.body as IDataObject).messages).toEqual((first.body as IDataObject).messages);
	});

	test('a 400 for tools the model cannot call: the fallback gets the same tools and calls them', async () => {
		const { outputs, error } = await engineWith(keys.fallback, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: {
				...simpleParameters('What is the weather in Paris?', 'fault-400-no-tools', {
					...toolRows,
					options: { ...QUIET, fallbackModels: 'tools-1' },
				}),
			},
			items: jsonItems({}),
		});
		expect(error).toBeUndefined();
		expect(outputs[1].map((item) => [item.json.name, item.json.args])).toEqual([
			['weather', { city: 'Paris' }],
		]);
		expect(outputs[1][0].json.attempts).toEqual([
			{
				model: 'fault-400-no-tools',
				error: expect.stringMatching(/does not support Function Calling/),
			},
		]);
		const [first, second] = await service().requests();
		expect((second.body as IDataObject).tools).toEqual((first.body as IDataObject).tools);
		expect(await modelsAsked()).toEqual(['fault-400-no-tools', 'tools-1']);
	});

	test('JSON Schema goes to the fallback as to the first model', async () => {
		const schema = JSON.stringify({
			type: 'object',
			properties: { city: { type: 'string' } },
			required: ['city'],
		});
		const json = await runOne(
			simpleParameters('Paris', 'fault-503-one-api-no-channel', {
				responseFormat: 'jsonSchema',
				jsonSchema: schema,
				options: { ...QUIET, fallbackModels: 'json-1' },
			}),
		);
		expect(json.json).toEqual({ city: 'Paris' });
		const [first, second] = await service().requests();
		expect((second.body as IDataObject).response_format).toEqual(
			(first.body as IDataObject).response_format,
		);
	});

	test('models in order, one per line or separated by commas, or an array from an expression', async () => {
		const lines = await runOne(
			simpleParameters('Hi', 'no-such-model', {
				options: { ...QUIET, fallbackModels: 'fault-500,\n  echo-pro \n echo-1' },
			}),
		);
		expect(lines.model).toMatch(/^echo-1-/);
		expect((lines.attempts as IDataObject[]).map((attempt) => attempt.model)).toEqual([
			'no-such-model',
			'fault-500',
			'echo-pro',
		]);
		await service().clearRequests();
		const array = await runOne(
			simpleParameters('Hi', 'no-such-model', {
				options: { ...QUIET, fallbackModels: "={{ ['echo-pro', 'echo-1'] }}" },
			}),
		);
		expect(array.model).toMatch(/^echo-1-/);
		expect(await modelsAsked()).toEqual(['no-such-model', 'echo-pro', 'echo-1']);
	});

	test('the first model answers: attempts is empty, and without Fallback Models there is no attempts field', async () => {
		const json = await runOne(
			simpleParameters('Hi', 'echo-1', { options: { fallbackModels: 'vision-1' } }),
		);
		expect(json.attempts).toEqual([]);
		const plain = await runOne(simpleParameters('Hi', 'echo-1'));
		expect(plain).not.toHaveProperty('attempts');
		expect(await modelsAsked()).toEqual(['echo-1', 'echo-1']);
	});

	test('every model failed: the error names each model and its failure', async () => {
		const json = await runOne(
			simpleParameters('Hi', 'no-such-model', {
				options: { ...QUIET, fallbackModels: 'fault-500, fault-503-one-api-no-channel' },
			}),
		);
		expect(json.error).toBe(
			'Each model failed (Options > Fallback Models): "no-such-model": Model "no-such-model" does not exist on this service; "fault-500": The service failed while answering (500); "fault-503-one-api-no-channel": Model "fault-503-one-api-no-channel" is not available to this API key\'s group: the gateway has no channel for it (item 0)',
		);
		expect(json.error_details).toMatchObject({ http_code: 503 });
		expect((json.error_details as IDataObject).description).toMatch(
			/Add another model to Options > Fallback Models/,
		);
	});

	test('a model the key cannot use is asked once per run, not once per item: the next items go straight to the fallback', async () => {
		const { outputs, error } = await engineWith(keys.fallback, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ $json.q }}', 'echo-pro', {
				options: { ...QUIET, concurrency: 1, fallbackModels: 'echo-1' },
			}),
			items: jsonItems(...Array.from({ length: 50 }, (_, n) => ({ q: `item ${n}` }))),
		});
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		expect(json.map((item) => item.content)).toEqual(
			Array.from({ length: 50 }, (_, n) => `item ${n}`),
		);
		expect(
			json.every((item) => item.model === 'echo-1' || /^echo-1/.test(String(item.model))),
		).toBe(true);
		// Each item still says which model failed, and why.
		for (const item of json) {
			expect(item.attempts).toEqual([
				{ model: 'echo-pro', error: expect.stringMatching(/not available to this API key/) },
			]);
		}
		const asked = await modelsAsked();
		expect(asked.filter((model) => model === 'echo-pro')).toHaveLength(1);
		expect(asked.filter((model) => model === 'echo-1')).toHaveLength(50);
	});

	test('a bad entry names the field and the fix; nothing is sent', async () => {
		const json = await runOne(
			simpleParameters('Hi', 'echo-1', { options: { fallbackModels: '={{ [1] }}' } }),
		);
		expect(json.error).toBe('Fallback Models: has an entry that is not a model ID: 1 (item 0)');
		expect((json.error_details as IDataObject).description).toMatch(
			/one per line or separated by commas/,
		);
		expect(await service().requests()).toEqual([]);
	});
});

describe('a failure every model would share ends the item at once', () => {
	test.each([
		['401: the key is rejected', keys.fallback, 'fault-string-error', /rejected the API key/],
		['401: the key expired', keys.expired, 'echo-1', /rejected the API key/],
		['402: out of balance', keys.fallback, 'fault-402', /run out of balance/],
		['429 insufficient_quota', keys.fallback, 'fault-429-quota', /run out of balance/],
		['403 insufficient_user_quota', keys.broke, 'echo-1', /run out of balance/],
		['400 budget_exceeded', keys.fallback, 'fault-400-budget', /run out of balance/],
		[
			'400: a request wrong in itself',
			keys.fallback,
			'fault-numeric-code',
			/rejected the request: Invalid parameter/,
		],
	])('%s', async (_name, apiKey, first, failure) => {
		const json = await runOne(
			simpleParameters('Hi', first, { options: { ...QUIET, fallbackModels: 'vision-1' } }),
			apiKey,
		);
		expect(json.error).toMatch(failure);
		expect(json.error).not.toMatch(/Each model failed/);
		expect(await modelsAsked()).toEqual([first]);
	});

	test('the execution is cancelled while the first model is asked: the fallback is never asked', async () => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 500);
		const { status } = await engineWith(keys.fallback, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hi', 'fault-timeout', {
				options: { ...QUIET, timeout: 30000, fallbackModels: 'echo-1' },
			}),
			items: jsonItems({}),
			signal: controller.signal,
		});
		expect(status).toBe('canceled');
		expect(await modelsAsked()).toEqual(['fault-timeout']);
	});

	test('a stop after another item failed (On Error: Stop Workflow): the fallback is never asked', async () => {
		const { error } = await engineWith(keys.fallback, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: {
				...simpleParameters('={{ $json.q }}', '={{ $json.model }}', {
					options: { ...QUIET, concurrency: 2, timeout: 30000, fallbackModels: 'echo-1' },
				}),
				model: modelFromList('={{ $json.model }}'),
			},
			items: jsonItems({ model: 'fault-timeout', q: 'slow' }, { model: 'fault-402', q: 'broke' }),
		});
		expect(error?.message).toMatch(/run out of balance \(item 1\)/);
		expect((await modelsAsked()).sort()).toEqual(['fault-402', 'fault-timeout']);
	});
});
