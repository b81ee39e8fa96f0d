/**
 * The Chat Completions Chat Model's Fallback Models, request ids and cost, called as n8n's AI nodes call
 * it (chat-model-probe.cts) through n8n-core's engine, against the local service's `fallback` key.
 */
import { concat } from '@langchain/core/utils/stream';
import type { AIMessageChunk } from '@langchain/core/messages';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { z } from 'zod';

import { modelOutputs, runProbe } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const QUIET = { maxRetries: 0, maxRateLimitWait: 0 };

function probe(
	model: string,
	script: ProbeScript,
	options: INodeParameters = {},
	apiKey = keys.fallback,
) {
	return runProbe({ apiKey, baseUrl: service().baseUrl, model, options, script });
}

async function modelsAsked(): Promise<string[]> {
	return (await service().requests()).map(
		(request) => (request.body as IDataObject).model as string,
	);
}

/** Invokes the model and returns its text and response metadata. */
const invoke =
	(input: string | HumanMessage[] = 'Hello there'): ProbeScript =>
	async (model) => {
		const message = await model.invoke(input);
		return { text: message.text, metadata: message.response_metadata as IDataObject };
	};

/** Streams the model and returns the pieces and the whole text. */
const stream =
	(text = 'one two three four'): ProbeScript =>
	async (model) => {
		const pieces: string[] = [];
		let whole: AIMessageChunk | undefined;
		for await (const chunk of await model.stream(text)) {
			pieces.push(chunk.text);
			whole = whole === undefined ? chunk : concat(whole, chunk);
		}
		return { pieces: pieces.filter((piece) => piece !== ''), text: whole?.text ?? '' };
	};

describe('the Chat Model falls back in every AI node call', () => {
	test.each([
		['404: the model does not exist', 'no-such-model', {}, /does not exist/],
		[
			'404 without model_not_found (Ollama: not pulled)',
			'fault-404-not-pulled',
			{},
			/does not exist|no such endpoint under .* \(404\)/,
		],
		["403: the key's group cannot call it", 'echo-pro', {}, /not available to this API key/],
		['503 "no channel"', 'fault-503-one-api-no-channel', {}, /no channel/],
		[
			'the rate limit wait ran out',
			'fault-429-wait',
			{ maxRateLimitWait: 1000 },
			/Max Wait on Rate Limit/,
		],
		[
			'a server error after the retries',
			'fault-500',
			{ maxRetries: 1 },
			/\(500\), after 2 attempts/,
		],
		['a timeout', 'fault-timeout', { timeout: 1000 }, /did not answer within/],
	])('%s', async (_name, first, options, failure) => {
		const run = await probe(first, invoke(), { ...QUIET, ...options, fallbackModels: 'echo-1' });
		expect(run.error).toBeUndefined();
		expect(run.output?.text).toBe('Hello there');
		const metadata = run.output?.metadata as IDataObject;
		expect(metadata.service_model).toMatch(/^echo-1-/);
		expect(metadata.attempts).toEqual([{ model: first, error: expect.stringMatching(failure) }]);
		expect((await modelsAsked()).at(-1)).toBe('echo-1');
	});

	test('an image the first model cannot see goes to the fallback', async () => {
		const image = `${service().origin}/__assets/pixel-2x3.png`;
		const run = await probe(
			'echo-1',
			invoke([
				new HumanMessage({
					content: [
						{ type: 'text', text: 'What is it?' },
						{ type: 'image_url', image_url: { url: image } },
					],
				}),
			]),
			{ ...QUIET, fallbackModels: 'vision-1' },
		);
		expect(run.error).toBeUndefined();
		expect(run.output?.text).toBe('Image 1: PNG 2x3\n\nYou asked: What is it?');
		expect(await modelsAsked()).toEqual(['echo-1', 'vision-1']);
	});

	test('bound tools go to the fallback, which calls them', async () => {
		const weather = tool(async ({ city }) => `sunny in ${city}`, {
			name: 'weather',
			description: 'The weather in a city',
			schema: z.object({ city: z.string() }),
		});
		const run = await probe(
			'fault-400-no-tools',
			async (model) => {
				const message = await model.bindTools!([weather]).invoke('What is the weather in Paris?');
				return {
					calls: message.tool_calls?.map((call) => [
						call.name,
						call.args,
					]) as unknown as IDataObject[],
				};
			},
			{ ...QUIET, fallbackModels: 'tools-1' },
		);
		expect(run.error).toBeUndefined();
		expect(run.output?.calls).toEqual([['weather', { city: 'Paris' }]]);
		const [first, second] = await service().requests();
		expect((second.body as IDataObject).tools).toEqual((first.body as IDataObject).tools);
	});

	test('streaming: a model that fails before its first token is replaced', async () => {
		const run = await probe('fault-503-one-api-no-channel', stream(), {
			...QUIET,
			fallbackModels: 'echo-1',
		});
		expect(run.error).toBeUndefined();
		expect(run.output?.text).toBe('one two three four');
		expect((run.output?.pieces as string[]).length).toBeGreaterThanOrEqual(4);
		expect(await modelsAsked()).toEqual(['fault-503-one-api-no-channel', 'echo-1']);
	});

	test('streaming: a model that fails after its first token is not replaced', async () => {
		const run = await probe('echo-1', stream(), {
			...knobs({ error_after: 2 }, QUIET).options,
			fallbackModels: 'vision-1',
		});
		expect(run.error?.message).toMatch(/upstream stream failed/);
		expect(await modelsAsked()).toEqual(['echo-1']);
	});

	test.each([
		['401', 'fault-string-error', /rejected the API key/],
		['402', 'fault-402', /run out of balance/],
		['429 insufficient_quota', 'fault-429-quota', /run out of balance/],
		['a request wrong in itself', 'fault-numeric-code', /Invalid parameter/],
	])('no fallback after %s', async (_name, first, failure) => {
		const run = await probe(first, invoke(), { ...QUIET, fallbackModels: 'echo-1' });
		expect(run.error?.message).toMatch(failure);
		expect(await modelsAsked()).toEqual([first]);
	});

	test('every model failed: the error names each model and its failure', async () => {
		const run = await probe('no-such-model', invoke(), { ...QUIET, fallbackModels: 'fault-500' });
		expect(run.error?.message).toMatch(
			/^Each model failed \(Options > Fallback Models\): "no-such-model": Model "no-such-model" does not exist on this service; "fault-500": The service failed while answering \(500\)\./,
		);
	});
});

describe("the service's cost and request id reach n8n", () => {
	test.each([
		['generate', invoke()],
		['stream', stream('Hello there')],
	])(
		'%s: the cost in the log n8n shows; model, request id and attempts in the log too',
		async (_name, script) => {
			const run = await probe('no-such-model', script, {
				...knobs(
					{ usage_cost: 0.003, request_id: { header: 'x-request-id', value: 'req_model_1' } },
					QUIET,
				).options,
				fallbackModels: 'echo-1',
			});
			expect(run.error).toBeUndefined();
			const [output] = modelOutputs(run.runData);
			expect(output.tokenUsage).toEqual({
				promptTokens: 2,
				completionTokens: 2,
				totalTokens: 4,
				cost: 0.003,
			});
			const [[generation]] = (output.response as { generations: IDataObject[][] }).generations;
			expect(generation.generationInfo).toMatchObject({
				service_model: expect.stringMatching(/^echo-1-/),
				request_id: 'req_model_1',
				cost: 0.003,
				attempts: [{ model: 'no-such-model', error: expect.stringMatching(/does not exist/) }],
			});
		},
	);

	test('without a cost, request id or Fallback Models, the log has none of them', async () => {
		const run = await probe('echo-1', invoke());
		const [output] = modelOutputs(run.runData);
		expect(output.tokenUsage).toEqual({ promptTokens: 2, completionTokens: 2, totalTokens: 4 });
		const [[generation]] = (output.response as { generations: IDataObject[][] }).generations;
		expect(generation.generationInfo).not.toHaveProperty('request_id');
		expect(generation.generationInfo).not.toHaveProperty('attempts');
		expect(generation.generationInfo).not.toHaveProperty('cost');
	});

	test("a failure's message carries the gateway's request id", async () => {
		const run = await probe('fault-500-request-id', invoke(), QUIET);
		expect(run.error?.message).toMatch(/\(request id: 20261124093015123456789\)/);
	});
});
