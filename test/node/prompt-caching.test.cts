/**
 * Options > Prompt Caching on Chat Completion and the Chat Model: what is sent for each choice (nothing, a
 * top-level `cache_control`, a breakpoint on the system message's last text part, with the TTL), the cache's
 * counts in the output item and in the Chat Model's log, and the fix a service that takes no `cache_control`
 * gets. The local service caches as OpenRouter does: the first request with a prefix writes it, the next reads it.
 * Not checked against the official request schema as the other Chat Completion tests are: `cache_control` is the
 * gateways' field (Anthropic's, passed through), not OpenAI's.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { modelOutputs, runProbe, warmUp } from './chat-model-probe.cts';
import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const SYSTEM = 'You sort support tickets into billing, outage or other';

/** Chat Completion in Simple mode with a system message, one request after another, over `questions`. */
async function ask(options: INodeParameters, questions = ['first ticket', 'second ticket']) {
	return await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('={{ $json.q }}', 'echo-1', {
			systemMessage: SYSTEM,
			options: { concurrency: 1, ...options },
		}),
		items: jsonItems(...questions.map((q) => ({ q }))),
		settings: { onError: 'continueRegularOutput' },
	});
}

const bodies = async () =>
	(await service().requests())
		.filter((request) => request.path.endsWith('/chat/completions'))
		.map((request) => request.body as IDataObject);

describe('Chat Completion', () => {
	test('Off (and not added): no cache_control anywhere in the request, no prompt_cache in the output', async () => {
		for (const options of [{}, { promptCaching: 'off' }]) {
			await service().clearRequests();
			const { outputs } = await ask(options, ['one ticket']);
			expect(outputs[0][0].json.content).toBe('one ticket');
			expect(outputs[0][0].json.prompt_cache).toBeUndefined();
			expect(JSON.stringify(await bodies())).not.toContain('cache_control');
		}
	});

	test('System Message: a breakpoint on the system text; the first item writes the cache, the second reads it', async () => {
		const { outputs } = await ask({ promptCaching: 'systemMessage' });
		const [first, second] = await bodies();
		expect((first.messages as IDataObject[])[0]).toEqual({
			role: 'system',
			content: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
		});
		expect(first.cache_control).toBeUndefined();
		const words = SYSTEM.split(' ').length;
		expect(outputs[0].map((item) => item.json.prompt_cache)).toEqual([
			{ read_tokens: 0, write_tokens: words },
			{ read_tokens: words, write_tokens: 0 },
		]);
		expect((second.messages as IDataObject[])[0]).toEqual((first.messages as IDataObject[])[0]);
		// The conversation handed on carries no breakpoint: a node after it with caching off sends none.
		expect((outputs[0][0].json.messages as IDataObject[])[0]).toEqual({
			role: 'system',
			content: SYSTEM,
		});
	});

	test('Automatic with a TTL of 1 hour: a top-level cache_control with ttl "1h", the messages as they are', async () => {
		const { outputs } = await ask({ promptCaching: 'automatic', promptCacheTtl: '1h' });
		const [first] = await bodies();
		expect(first.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
		expect(JSON.stringify(first.messages)).not.toContain('cache_control');
		expect(outputs[0][1].json.prompt_cache).toMatchObject({ write_tokens: 0 });
		expect((outputs[0][1].json.prompt_cache as IDataObject).read_tokens).toBeGreaterThan(0);
	});

	test('System Message without a system message: the item fails naming the option and the fix, nothing is sent', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('hello', 'echo-1', {
				options: { promptCaching: 'systemMessage' },
			}),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0][0].json.error).toBe(
			'Options > Prompt Caching: is System Message, but the request has no system message with text to cache (item 0)',
		);
		expect(await bodies()).toHaveLength(0);
	});

	test('a service that takes no cache_control: its 400 gets the fix to turn the option off', async () => {
		const { outputs } = await ask(
			{
				promptCaching: 'automatic',
				extraBody: JSON.stringify({ x_local: { reject_cache_control: true } }),
			},
			['one ticket'],
		);
		const item = outputs[0][0].json;
		expect(item.error).toBe(
			'The service rejected the request: Extra inputs are not permitted: cache_control (item 0)',
		);
		expect(JSON.stringify(item)).toContain('set Options > Prompt Caching to Off');
		expect(await bodies()).toHaveLength(1);
	});

	test('Extra Body may not set cache_control while the option does', async () => {
		const { outputs } = await ask(
			{ promptCaching: 'automatic', extraBody: '{"cache_control": {"type": "ephemeral"}}' },
			['one ticket'],
		);
		expect(outputs[0][0].json.error).toMatch(
			/^Extra Body: sets "cache_control", which Options > Prompt Caching sets/,
		);
		expect(await bodies()).toHaveLength(0);
	});
});

describe('the Chat Model', () => {
	beforeAll(async () => await warmUp(keys.default, service().baseUrl), 60_000);

	test("System Message: the agent's system prompt gets the breakpoint; the log shows the cache's counts", async () => {
		const runs = [];
		for (let turn = 0; turn < 2; turn++) {
			runs.push(
				await runProbe({
					apiKey: keys.default,
					baseUrl: service().baseUrl,
					model: 'echo-1',
					options: { promptCaching: 'systemMessage' },
					script: async (model) => ({
						text: (
							await model.invoke([
								['system', SYSTEM],
								['user', `ticket ${turn}`],
							])
						).text,
					}),
				}),
			);
		}
		const [first] = await bodies();
		expect((first.messages as IDataObject[])[0]).toEqual({
			role: 'system',
			content: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
		});
		const words = SYSTEM.split(' ').length;
		const logged = runs.map((run) => {
			const [output] = modelOutputs(run.runData);
			const [[generation]] = (output.response as { generations: IDataObject[][] }).generations;
			return (generation.generationInfo as IDataObject).prompt_cache;
		});
		expect(logged).toEqual([
			{ read_tokens: 0, write_tokens: words },
			{ read_tokens: words, write_tokens: 0 },
		]);
	});

	test("LangChain's usage of the message counts the cache's reads and writes, whole and streamed", async () => {
		const words = SYSTEM.split(' ').length;
		const seen = [];
		for (const streamed of [false, true]) {
			await service().clearRequests();
			const run = await runProbe({
				apiKey: keys.default,
				baseUrl: service().baseUrl,
				model: 'echo-1',
				options: { promptCaching: 'systemMessage' },
				script: async (model) => {
					const details = [];
					for (const turn of [0, 1]) {
						const messages: Array<[string, string]> = [
							['system', SYSTEM],
							['user', `ticket ${turn}`],
						];
						let usage: unknown;
						if (streamed) {
							for await (const chunk of await model.stream(messages))
								usage = chunk.usage_metadata ?? usage;
						} else {
							usage = (await model.invoke(messages)).usage_metadata;
						}
						details.push((usage as IDataObject).input_token_details ?? null);
					}
					return { details };
				},
			});
			expect(run.error).toBeUndefined();
			seen.push(run.output?.details);
		}
		const counted = [
			{ cache_read: 0, cache_creation: words },
			{ cache_read: words, cache_creation: 0 },
		];
		expect(seen).toEqual([counted, counted]);
	});
});
