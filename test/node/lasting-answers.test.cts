/**
 * Answers that hold for the rest of a run, through n8n-core's engine against the local service: the balance
 * or a refused key holds for every request of the key, a model the key may not call holds for that model.
 * After the first such answer the run stops asking: the items not yet sent fail with the same words and say
 * they were not sent; the model check before a batch stops at a refused key; a model that lasts is asked once
 * while a fallback is left.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const NOT_SENT =
	/Not sent: an earlier request of this run got this answer, which holds for every request with this key/;

const items = (count: number) =>
	jsonItems(...Array.from({ length: count }, (_, n) => ({ q: `item ${n}` })));

async function run(
	apiKey: string,
	model: string,
	count: number,
	options: INodeParameters = {},
	onError: 'continueRegularOutput' | undefined = 'continueRegularOutput',
) {
	return await engineWith(apiKey, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('={{ $json.q }}', model, {
			options: { maxRetries: 0, ...options },
		}),
		items: items(count),
		settings: onError === undefined ? {} : { onError },
	});
}

async function chatRequests(): Promise<IDataObject[]> {
	return (await service().requests())
		.filter((request) => request.path.endsWith('/chat/completions'))
		.map((request) => request.body as IDataObject);
}

describe('an answer that holds for the key: the items after it are not sent', () => {
	test.each([
		['OpenAI insufficient_quota (429)', keys.faults, 'fault-429-quota', 429],
		['new-api "token quota is not enough" (429)', keys.faults, 'fault-429-new-api-quota', 429],
		['one-api in its own words (429)', keys.faults, 'fault-429-one-api-quota', 429],
		['one-api insufficient_user_quota (403)', keys.broke, 'echo-1', 403],
	])('%s, 300 items under Continue', async (_name, apiKey, model, status) => {
		const { outputs, error } = await run(apiKey, model, 300, { concurrency: 4 });
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		expect(json).toHaveLength(300);
		// At most the requests in flight when the first answer came: not one per item.
		const sent = (await chatRequests()).length;
		expect(sent).toBeGreaterThanOrEqual(1);
		expect(sent).toBeLessThanOrEqual(4);
		// Every item fails with the balance's words and the service's status; those not sent say so.
		for (const item of json) {
			expect(item.error).toMatch(/^The account behind this API key has run out of balance/);
			expect(item.error_details).toMatchObject({ http_code: status });
		}
		const notSent = json.filter((item) =>
			NOT_SENT.test((item.error_details as IDataObject).description as string),
		);
		expect(notSent).toHaveLength(300 - sent);
	});

	test('a refused key at Auto: the first answers end the asking, every item says the key was refused', async () => {
		const { outputs } = await run('sk-example-wrong', 'echo-1', 300);
		const json = outputs[0].map((item) => item.json);
		expect(
			json.every((item) => /^The service rejected the API key/.test(item.error as string)),
		).toBe(true);
		const sent = (await service().requests()).length;
		// Auto starts with 64 requests in flight: the ones sent before the first 401 came back.
		expect(sent).toBeLessThanOrEqual(64);
		expect(
			json.filter((item) =>
				NOT_SENT.test((item.error_details as IDataObject).description as string),
			),
		).toHaveLength(300 - sent);
	});

	test('the next run asks again: the answer holds for a run, not for the key for ever', async () => {
		await run(keys.broke, 'echo-1', 3, { concurrency: 1 });
		await run(keys.broke, 'echo-1', 3, { concurrency: 1 });
		expect(await chatRequests()).toHaveLength(2);
	});
});

test('the model check before a batch (Stop Workflow, models from an expression) stops at a refused key: nothing is sent', async () => {
	const { error } = await engineWith('sk-example-wrong', service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello', '={{ $json.model }}'),
		items: jsonItems(...Array.from({ length: 20 }, () => ({ model: 'echo-1' }))),
	});
	expect(error?.message).toBe('The service rejected the API key');
	expect(error?.description).toMatch(
		/Nothing was sent: the check of the batch's models before it \(GET \/models\) got this answer\./,
	);
	expect(await chatRequests()).toHaveLength(0);
	expect((await service().requests()).map((request) => request.path)).toEqual(['/v1/models']);
});

describe('a model that fails for the run, with Fallback Models', () => {
	test('at Auto, 50 items: the model the key may not call is asked once, every item answered by the fallback', async () => {
		const { outputs, error } = await run(keys.fallback, 'echo-pro', 50, {
			fallbackModels: 'echo-1',
		});
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		expect(json.map((item) => item.content)).toEqual(
			Array.from({ length: 50 }, (_, n) => `item ${n}`),
		);
		const asked = (await chatRequests()).map((body) => body.model);
		expect(asked.filter((model) => model === 'echo-pro')).toHaveLength(1);
		expect(asked.filter((model) => model === 'echo-1')).toHaveLength(50);
	});

	test('with a Token Budget: the items not sent say the budget alone, not that each model failed', async () => {
		const { outputs } = await run(keys.fallback, 'echo-pro', 10, {
			concurrency: 1,
			fallbackModels: 'echo-1',
			tokenBudget: 10,
		});
		const errors = outputs[0].map((item) => item.json.error).filter(Boolean);
		expect(errors.length).toBeGreaterThan(0);
		for (const message of errors) {
			expect(message).toMatch(/^Not sent: .*Token Budget of 10 tokens/);
		}
		const descriptions = outputs[0]
			.filter((item) => item.json.error !== undefined)
			.map((item) => (item.json.error_details as IDataObject).description as string);
		expect(descriptions.every((text) => !/Add another model/.test(text))).toBe(true);
	});
});
