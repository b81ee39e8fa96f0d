/** Replies that look like success but are not: refusals, replies without a finish reason, "no channel". */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const PROMPT = 'Tell me a secret';
/** echo-1's reply, cut after its first `words` (one word per streamed chunk). */
const firstWords = (words: number) => PROMPT.split(' ').slice(0, words).join(' ');

async function run(model: string, options: INodeParameters, apiKey = keys.default) {
	await service().clearRequests();
	const { outputs, error } = await engineWith(apiKey, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(PROMPT, model, { options }),
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(error).toBeUndefined();
	return { json: outputs[0][0].json, requests: await service().requests() };
}

describe('a refusal is never an empty success', () => {
	test.each([
		['not streamed, content null', {}],
		['not streamed, content ""', { refusal_empty_content: true }],
		['streamed', { stream: true }],
	])('%s: the item carries the refusal text', async (_name, extra) => {
		const { stream, ...xLocal } = extra as IDataObject;
		const options = knobs(
			{ refusal: "I can't help with that.", ...xLocal },
			stream ? { stream: true } : {},
		).options;
		const { json } = await run('echo-1', options);
		expect(json.refusal).toBe("I can't help with that.");
		expect(json.content).toBe('');
		expect(json.finish_reason).toBe('stop');
		expect(json.message).toEqual({
			role: 'assistant',
			content: null,
			refusal: "I can't help with that.",
		});
		expect(json.error).toBeUndefined();
	});

	test('a normal reply has no refusal field', async () => {
		const { json } = await run('echo-1', {});
		expect(json).not.toHaveProperty('refusal');
	});
});

describe('a reply that never says why it stopped is an error that keeps the text received', () => {
	test.each([
		[
			'a stream closed by [DONE] without a finish_reason',
			{ no_finish_done: true },
			true,
			/^The stream ended with \[DONE\] but never said why the reply stopped/,
			PROMPT,
		],
		[
			'a stream closed by the connection after 3 chunks',
			{ cut_after: 3 },
			true,
			/^The stream ended before the reply was complete/,
			firstWords(3),
		],
		[
			'a non-streamed choice with finish_reason null',
			{ null_finish: true },
			false,
			/^The service answered without saying why the reply stopped \(finish_reason is null\)/,
			PROMPT,
		],
	])('%s', async (_name, xLocal, stream, message, kept) => {
		const options = knobs(
			xLocal,
			stream ? { stream: true, maxRetries: 0 } : { maxRetries: 0 },
		).options;
		const { json, requests } = await run('echo-1', options);
		expect(json.error).toMatch(message);
		expect(json.error).toMatch(/\(item 0\)$/);
		const details = json.error_details as IDataObject;
		expect(details.partial_content).toBe(kept);
		expect(details.description).toMatch(/partial_content/);
		expect(requests).toHaveLength(1);
	});
});

describe('"no channel for this model" is the model being out of reach, not an outage', () => {
	test.each([
		[
			'one-api, Chinese, code null',
			'fault-503-one-api-no-channel',
			/当前分组 faults 下对于模型 fault-503-one-api-no-channel 无可用渠道/,
			'one_api_error',
		],
		[
			'new-api, English, no code',
			'fault-503-new-api-no-channel',
			/No available channel for model fault-503-new-api-no-channel under group faults/,
			'new_api_error',
		],
	])(
		'%s: not retried, worded like model_not_found, the service text kept',
		async (_name, model, serviceText, type) => {
			const { json, requests } = await run(model, { maxRetries: 3 }, keys.faults);
			expect(json.error).toBe(
				`Model "${model}" is not available to this API key's group: the gateway has no channel for it (item 0)`,
			);
			const details = json.error_details as IDataObject;
			expect(details).toMatchObject({ http_code: 503, type });
			expect(details.description).toMatch(serviceText);
			expect(details.description).toMatch(/Pick the model from the list/);
			expect(requests).toHaveLength(1);
		},
	);
});
