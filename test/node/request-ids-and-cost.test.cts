/**
 * What the gateway says of a request besides the reply, in the Chat Completion node's items and errors:
 * its request id (headers, OpenRouter's generation id, one-api's "(request id: ...)") and its cost
 * (`usage.cost`, LiteLLM's header); the usage whole, with its details.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runOneItem, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

async function runOne(parameters: INodeParameters, apiKey = keys.fallback) {
	return await runOneItem(apiKey, service().baseUrl, parameters);
}

const header = (name: string, value: string) => ({ request_id: { header: name, value } });

describe('request ids reach the item and every error', () => {
	test.each([
		['X-Oneapi-Request-Id (one-api, new-api)', header('x-oneapi-request-id', '202611240930151234')],
		['X-Request-Id', header('x-request-id', 'req_abc123')],
		[
			'x-litellm-call-id (LiteLLM)',
			header('x-litellm-call-id', '7f0c1e7a-0b2e-4d5c-9f3a-1b2c3d4e5f60'),
		],
		["OpenRouter's generation id", { completion_id: 'gen-1764000000-AbCdEf' }],
	])('%s', async (_name, knob) => {
		const expected = 'request_id' in knob ? knob.request_id.value : knob.completion_id;
		for (const stream of [false, true]) {
			const json = await runOne(simpleParameters('Hi', 'echo-1', knobs(knob, { stream })));
			expect(json.request_id).toBe(expected);
		}
	});

	test('no id from the service: no request_id field', async () => {
		const json = await runOne(simpleParameters('Hi', 'echo-1'));
		expect(json).not.toHaveProperty('request_id');
		expect(json).not.toHaveProperty('cost');
	});

	test("a failure's description ends with the id from the headers", async () => {
		const json = await runOne(
			simpleParameters(
				'Hi',
				'fault-500',
				knobs(header('x-request-id', 'req_failed_1'), { maxRetries: 0 }),
			),
		);
		expect((json.error_details as IDataObject).description).toMatch(
			/\(request id: req_failed_1\)$/,
		);
	});

	test('a failure inside a stream keeps the id of its request', async () => {
		const json = await runOne(
			simpleParameters(
				'one two three',
				'echo-1',
				knobs({ ...header('x-oneapi-request-id', 'stream-42'), error_after: 1 }, { stream: true }),
			),
		);
		expect(json.error).toMatch(/upstream stream failed/);
		expect((json.error_details as IDataObject).description).toMatch(/\(request id: stream-42\)$/);
	});

	test('one-api\'s "(request id: ...)" in its message: quoted with it, once', async () => {
		const json = await runOne(
			simpleParameters('Hi', 'fault-500-request-id', { options: { maxRetries: 0 } }),
		);
		const { description } = json.error_details as { description: string };
		expect(description.split('(request id: 20261124093015123456789)')).toHaveLength(2);
	});
});

describe('cost as the service reports it, never an estimate', () => {
	test.each([
		['usage.cost (OpenRouter)', { usage_cost: 0.00042 }, 0.00042],
		['x-litellm-response-cost (LiteLLM)', { cost_header: 0.0015 }, 0.0015],
	])('%s, streamed or not', async (_name, knob, cost) => {
		for (const stream of [false, true]) {
			const json = await runOne(simpleParameters('Hi', 'echo-1', knobs(knob, { stream })));
			expect(json.cost).toBe(cost);
		}
	});

	test('usage keeps every detail the service sent', async () => {
		const json = await runOne(
			simpleParameters('Hi there', 'echo-1', knobs({ cached_tokens: 1, usage_cost: 0.5 })),
		);
		expect(json.usage).toEqual({
			prompt_tokens: 2,
			completion_tokens: 2,
			total_tokens: 4,
			prompt_tokens_details: { cached_tokens: 1 },
			completion_tokens_details: { reasoning_tokens: 0 },
			cost: 0.5,
		});
	});

	test('a repair round: usage and cost add up over both requests, details included', async () => {
		const json = await runOne(
			simpleParameters('Paris as json', 'json-1', {
				responseFormat: 'jsonObject',
				options: {
					extraBody: JSON.stringify({
						x_local: {
							invalid_json: { id: 'cost-sum', count: 1, mode: 'syntax' },
							cached_tokens: 1,
							usage_cost: 0.25,
						},
					}),
				},
			}),
		);
		expect(await service().requests()).toHaveLength(2);
		expect(json.cost).toBe(0.5);
		expect((json.usage as IDataObject).cost).toBe(0.5);
		expect((json.usage as IDataObject).prompt_tokens_details).toEqual({ cached_tokens: 2 });
	});
});
