/**
 * The Chat Completions Chat Model through n8n-core's engine and the SDK's LangChain adapter, called the way
 * n8n's AI nodes call a model (see chat-model-probe.cts), against the local service.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { concat } from '@langchain/core/utils/stream';
import type { AIMessageChunk } from '@langchain/core/messages';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { StructuredOutputParser } from '@langchain/core/output_parsers';
import { tool } from '@langchain/core/tools';
import type { IDataObject, INodeParameters, IRunData, StructuredChunk } from 'n8n-workflow';
import { z } from 'zod';

import { modelOutputs, runProbe } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

function probe(
	model: string,
	script: ProbeScript,
	options: INodeParameters = {},
	apiKey = keys.default,
) {
	return runProbe({ apiKey, baseUrl: service().baseUrl, model, options, script });
}

/** The probe's output, failing with the run's error when there is one. */
async function answer(model: string, script: ProbeScript, options: INodeParameters = {}) {
	const run = await probe(model, script, options);
	if (run.error) throw new Error(`${run.error.message}\n${run.error.description ?? ''}`);
	return { ...(run.output as IDataObject), runData: run.runData } as IDataObject & {
		runData: IRunData;
	};
}

const weather = tool(async ({ city }) => `sunny in ${city}`, {
	name: 'weather',
	description: 'The weather in a city',
	schema: z.object({ city: z.string().describe('City name') }),
});

const question = [
	new SystemMessage('You are a helpful assistant'),
	new HumanMessage('What is the weather in Paris and Tokyo?'),
];

/** The history the AI Agent (v3) sends after running the calls: one assistant message per call, `content: []`, an `id` key added to the arguments, results as JSON text. */
function agentHistory(calls: Array<{ id?: string; name: string; args: Record<string, unknown> }>) {
	return calls.flatMap((call) => [
		new AIMessage({
			content: [],
			tool_calls: [
				{ id: call.id, name: call.name, args: { ...call.args, id: call.id }, type: 'tool_call' },
			],
		}),
		new ToolMessage({
			content: JSON.stringify([{ response: `sunny in ${call.args.city}` }]),
			tool_call_id: call.id ?? '',
		}),
	]);
}

describe('an AI node calls the model (generate)', () => {
	test('the reply text, the service usage in n8n, and a clean request', async () => {
		const reply = await answer('echo-1', async (model) => {
			const message = await model.invoke([
				new SystemMessage('Be brief'),
				new HumanMessage('Hello there'),
			]);
			return { text: message.text, usage: message.usage_metadata as unknown as IDataObject };
		});
		expect(reply.text).toBe('Hello there');
		expect(reply.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: 2 });
		const [request] = await service().requests();
		expect(request.path).toBe('/v1/chat/completions');
		expect(request.body).toEqual({
			model: 'echo-1',
			messages: [
				{ role: 'system', content: 'Be brief' },
				{ role: 'user', content: 'Hello there' },
			],
		});
		const [output] = modelOutputs(reply.runData);
		expect(output.tokenUsage).toEqual({
			promptTokens: expect.any(Number),
			completionTokens: 2,
			totalTokens: expect.any(Number),
		});
	});

	test('Response Format JSON Schema, a field from version 1.1 (in Options in version 1): sent alike, the reply checked', async () => {
		const schema = {
			type: 'object',
			properties: { name: { type: 'string' }, age: { type: 'integer' } },
			required: ['name', 'age'],
		};
		const ask = async (model: BaseChatModel) => ({ text: (await model.invoke('Ada is 36')).text });
		const format = { responseFormat: 'jsonSchema', jsonSchema: JSON.stringify(schema) };
		const base = { apiKey: keys.default, baseUrl: service().baseUrl, model: 'json-1', script: ask };
		const runs = [
			await runProbe({ ...base, typeVersion: 1.1, fields: format }),
			await runProbe({ ...base, options: format }),
		];
		const bodies = (await service().requests()).map((request) => request.body as IDataObject);
		expect(bodies).toHaveLength(2);
		for (const [index, run] of runs.entries()) {
			expect(run.error).toBeUndefined();
			expect(JSON.parse((run.output as IDataObject).text as string)).toEqual({
				name: expect.any(String),
				age: expect.any(Number),
			});
			expect(bodies[index].response_format).toEqual({
				type: 'json_schema',
				json_schema: { name: 'response', schema, strict: false },
			});
		}
	});

	test('the credential is loaded once, however many requests the AI node makes', async () => {
		const run = await probe('echo-1', async (model) => {
			const replies = await Promise.all(
				['one', 'two', 'three'].map(async (text) => await model.invoke(text)),
			);
			return { texts: replies.map((reply) => reply.text) };
		});
		expect(run.output).toEqual({ texts: ['one', 'two', 'three'] });
		expect(await service().requests()).toHaveLength(3);
		expect(run.credentialReads).toBe(1);
	});

	test('options from the table go into the body; unset ones are not sent', async () => {
		await answer('echo-1', async (model) => ({ text: (await model.invoke('Hi')).text }), {
			temperature: 0.2,
			topP: 0.9,
			maxTokens: 50,
			extraBody: '{"seed": 7}',
		});
		const [request] = await service().requests();
		expect(request.body).toEqual({
			model: 'echo-1',
			messages: [{ role: 'user', content: 'Hi' }],
			temperature: 0.2,
			top_p: 0.9,
			max_tokens: 50,
			seed: 7,
		});
	});

	test('reasoning is kept out of the text, in a part after it (reasoning_content and inline <think>)', async () => {
		for (const model of ['think-1', 'think-inline-1']) {
			const reply = await answer(model, async (chat) => {
				const message = await chat.invoke('Why is the sky blue');
				return {
					text: message.text,
					parts: (message.content as Array<{ type: string }>).map((part) => part.type),
				};
			});
			expect(reply.text).toBe('Why is the sky blue');
			expect(reply.parts).toEqual(['text', 'reasoning']);
		}
	});

	test('a refusal is the reply text, not an empty answer', async () => {
		const reply = await answer(
			'echo-1',
			async (model) => ({ text: (await model.invoke('Tell me a secret')).text }),
			knobs({ refusal: 'I cannot help with that.' }).options,
		);
		expect(reply.text).toBe('I cannot help with that.');
	});

	test('an image in an image_url part reaches the service (AI Agent and Basic LLM Chain send images so)', async () => {
		const pixel = `${service().origin}/__assets/pixel-2x3.png`;
		const reply = await answer('vision-1', async (model) => {
			const message = await model.invoke([
				new HumanMessage({
					content: [
						{ type: 'text', text: 'What is this?' },
						{ type: 'image_url', image_url: { url: pixel, detail: 'high' } },
					],
				}),
			]);
			return { text: message.text };
		});
		expect(reply.text).toBe('Image 1: PNG 2x3 (detail high)\n\nYou asked: What is this?');
		const [request] = await service().requests();
		expect((request.body as IDataObject).messages).toEqual([
			{
				role: 'user',
				content: [
					{ type: 'text', text: 'What is this?' },
					{ type: 'image_url', image_url: { url: pixel, detail: 'high' } },
				],
			},
		]);
	});
});

describe('tools, as the AI Agent binds them', () => {
	test('two parallel calls come back with ids and parsed arguments; the agent-style history goes out as the protocol wants', async () => {
		const reply = await answer('tools-1', async (model) => {
			const agent = model.bindTools!([weather]);
			const first = (await agent.invoke(question)) as AIMessage;
			const calls = first.tool_calls ?? [];
			const second = await agent.invoke([...question, ...agentHistory(calls)]);
			return { calls: calls as unknown as IDataObject[], text: second.text };
		});
		const calls = reply.calls as Array<{ id: string; name: string; args: IDataObject }>;
		expect(calls.map(({ name, args }) => ({ name, args }))).toEqual([
			{ name: 'weather', args: { city: 'Paris' } },
			{ name: 'weather', args: { city: 'Tokyo' } },
		]);
		expect(calls[0].id).toMatch(/^call_/);
		expect(reply.text).toBe(
			'Based on the tools: weather({"city":"Paris"}) = [{"response":"sunny in Paris"}]; weather({"city":"Tokyo"}) = [{"response":"sunny in Tokyo"}]',
		);
		const [first, second] = await service().requests();
		expect((first.body as IDataObject).tools).toEqual([
			{
				type: 'function',
				function: {
					name: 'weather',
					description: 'The weather in a city',
					parameters: {
						type: 'object',
						properties: { city: { type: 'string', description: 'City name' } },
						required: ['city'],
						additionalProperties: false,
					},
				},
			},
		]);
		// One assistant message with both calls, the arguments as the model sent them, then both results.
		expect((second.body as IDataObject).messages).toEqual([
			{ role: 'system', content: 'You are a helpful assistant' },
			{ role: 'user', content: 'What is the weather in Paris and Tokyo?' },
			{
				role: 'assistant',
				content: null,
				tool_calls: calls.map((call) => ({
					id: call.id,
					type: 'function',
					function: { name: 'weather', arguments: JSON.stringify({ city: call.args.city }) },
				})),
			},
			{ role: 'tool', tool_call_id: calls[0].id, content: '[{"response":"sunny in Paris"}]' },
			{ role: 'tool', tool_call_id: calls[1].id, content: '[{"response":"sunny in Tokyo"}]' },
		]);
	});

	test("calls the model made one after the other stay apart; the agent's id key is not sent", async () => {
		const reply = await answer('tools-1', async (model) => {
			const agent = model.bindTools!([weather]);
			const first = (await agent.invoke([new HumanMessage('Weather in Paris?')])) as AIMessage;
			const history = [
				new HumanMessage('Weather in Paris?'),
				...agentHistory(first.tool_calls ?? []),
			];
			const second = (await agent.invoke([
				...history,
				new HumanMessage('And in Tokyo?'),
			])) as AIMessage;
			const third = await agent.invoke([
				...history,
				new HumanMessage('And in Tokyo?'),
				...agentHistory(second.tool_calls ?? []),
			]);
			return { text: third.text };
		});
		expect(reply.text).toMatch(/^Based on the tools: weather\(\{"city":"Tokyo"\}\)/);
		const requests = await service().requests();
		const messages = (requests[2].body as IDataObject).messages as IDataObject[];
		expect(messages.map((message) => message.role)).toEqual([
			'user',
			'assistant',
			'tool',
			'user',
			'assistant',
			'tool',
		]);
		expect(((messages[1].tool_calls as IDataObject[])[0].function as IDataObject).arguments).toBe(
			'{"city":"Paris"}',
		);
	});
});

describe('streaming, as the AI Agent streams behind a streaming trigger', () => {
	test("text arrives in pieces; usage in n8n is the service's, not an estimate", async () => {
		const reply = await answer('echo-1', async (model) => {
			const pieces: string[] = [];
			let whole: AIMessageChunk | undefined;
			for await (const chunk of await model.stream('one two three four five six')) {
				pieces.push(chunk.text);
				whole = whole === undefined ? chunk : concat(whole, chunk);
			}
			return {
				pieces,
				text: whole?.text ?? '',
				usage: whole?.usage_metadata as unknown as IDataObject,
			};
		});
		expect(
			(reply.pieces as string[]).filter((piece) => piece !== '').length,
		).toBeGreaterThanOrEqual(6);
		expect(reply.text).toBe('one two three four five six');
		const [request] = await service().requests();
		expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
		expect(reply.usage).toMatchObject({ output_tokens: 6 });
		const [output] = modelOutputs(reply.runData);
		expect(output.tokenUsage).toEqual({
			promptTokens: expect.any(Number),
			completionTokens: 6,
			totalTokens: expect.any(Number),
		});
		expect(output.tokenUsageEstimate).toBeUndefined();
	});

	test('two parallel tool calls survive streaming (one complete delta per call, with its id)', async () => {
		const reply = await answer('tools-1', async (model) => {
			let whole: AIMessageChunk | undefined;
			for await (const chunk of await model.bindTools!([weather]).stream(question)) {
				whole = whole === undefined ? chunk : concat(whole, chunk);
			}
			return { calls: (whole?.tool_calls ?? []) as unknown as IDataObject[] };
		});
		expect((reply.calls as IDataObject[]).map(({ name, args }) => ({ name, args }))).toEqual([
			{ name: 'weather', args: { city: 'Paris' } },
			{ name: 'weather', args: { city: 'Tokyo' } },
		]);
	});

	test('inline <think> reasoning is not streamed as text', async () => {
		const reply = await answer('think-inline-1', async (model) => {
			const pieces: string[] = [];
			for await (const chunk of await model.stream('Why is the sky blue')) pieces.push(chunk.text);
			return { text: pieces.join('') };
		});
		expect(reply.text).toBe('Why is the sky blue');
	});

	test('a stream that breaks off after text was passed on is an error, not retried', async () => {
		const run = await probe(
			'echo-1',
			async (model) => {
				for await (const chunk of await model.stream('one two three four five six')) void chunk;
				return {};
			},
			knobs({ cut_after: 3 }).options,
		);
		expect(run.error?.message).toMatch(/^The stream ended before the reply was complete/);
		expect(await service().requests()).toHaveLength(1);
	});
});

describe('errors: what the AI node shows is in the message', () => {
	const invoke: ProbeScript = async (model) => ({ text: (await model.invoke('hello')).text });

	test("a wrong key: our words, the service's text and the fix; the key is nowhere in the run", async () => {
		const run = await probe('echo-1', invoke, {}, 'sk-example-wrong-key-dummy');
		expect(run.error?.message).toMatch(
			/^The service rejected the API key\. The service answered ".+" \(HTTP 401.*\)\. Open the credential and paste the key again/,
		);
		expect(run.error?.message).not.toContain('(item 0)');
		// Nothing under the message repeats the service's words the message quotes.
		expect(run.error?.description ?? undefined).toBeUndefined();
		expect(JSON.stringify(run.runData)).not.toContain('sk-example-wrong-key-dummy');
		expect(JSON.stringify(run.error)).not.toContain('sk-example-wrong-key-dummy');
	});

	/** The Chat Model 1.1 on json-1 with Response Format JSON Object, running `script`. */
	const jsonObjectModel = (script: ProbeScript) =>
		runProbe({
			apiKey: keys.default,
			baseUrl: service().baseUrl,
			model: 'json-1',
			typeVersion: 1.1,
			fields: { responseFormat: 'jsonObject' },
			script,
		});

	test("Response Format JSON beside the AI Agent's Structured Output Parser: refused before sending, saying to use one", async () => {
		// The agent binds its Structured Output Parser as this tool.
		const parser = tool(async () => '', {
			name: 'format_final_json_response',
			description: 'Formats the final answer',
			schema: z.object({ answer: z.string() }),
		});
		const run = await jsonObjectModel(async (model) => ({
			text: (await model.bindTools!([parser]).invoke('hello')).text,
		}));
		expect(run.error?.message).toBe(
			'Response Format: asks for JSON while the AI Agent has a Structured Output Parser, which takes the answer from a tool call: with both, the parser gets nothing. Use one of the two: set Response Format to Text and keep the Structured Output Parser, or switch off Require Specific Output Format in the AI Agent and keep Response Format.',
		);
		expect(await service().requests()).toHaveLength(0);
	});

	// What the Basic LLM Chain with Require Specific Output Format puts into its prompt.
	const chainParser = StructuredOutputParser.fromZodSchema(z.object({ output: z.string() }));
	const chainPrompt = `Name a city.\n${chainParser.getFormatInstructions()}`;

	test("Response Format JSON Schema beside a chain's output parser (its instructions in the prompt): refused before sending", async () => {
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: service().baseUrl,
			model: 'json-1',
			typeVersion: 1.1,
			fields: {
				responseFormat: 'jsonSchema',
				jsonSchema: JSON.stringify({ type: 'object', properties: { city: { type: 'string' } } }),
			},
			script: async (model) => ({
				text: (await model.invoke([new HumanMessage(chainPrompt)])).text,
			}),
		});
		expect(run.error?.message).toMatch(
			/^Response Format: JSON Schema asks for JSON in its schema while the chain's output parser \(Require Specific Output Format\) asks the model for JSON of its own in the prompt.* Set Response Format to JSON Object or Text/,
		);
		expect(await service().requests()).toHaveLength(0);
	});

	test("Response Format JSON Object beside a chain's output parser: sent, the reply JSON as the prompt asks", async () => {
		const run = await jsonObjectModel(async (model) => ({
			text: (await model.invoke([new HumanMessage(chainPrompt)])).text,
		}));
		expect(run.error).toBeUndefined();
		const [request] = await service().requests();
		expect((request.body as { response_format?: unknown }).response_format).toEqual({
			type: 'json_object',
		});
	});

	test("a model outside the key's group is named, and not retried", async () => {
		const run = await probe('echo-pro', invoke);
		expect(run.error?.message).toMatch(
			/^Model "echo-pro" is not available to this API key\. The service answered/,
		);
		expect(run.error?.message).toMatch(/Pick the model from the list/);
		expect(await service().requests()).toHaveLength(1);
	});

	test('out of balance is not retried', async () => {
		const run = await runProbe({
			apiKey: keys.broke,
			baseUrl: service().baseUrl,
			model: 'echo-1',
			script: invoke,
			options: { maxRetries: 3 },
		});
		expect(run.error?.message).toMatch(/^The account behind this API key has run out of balance/);
		expect(await service().requests()).toHaveLength(1);
	});

	test("an HTTP 200 error body reads as the service's error", async () => {
		const run = await runProbe({
			apiKey: keys.faults,
			baseUrl: service().baseUrl,
			model: 'fault-200-error',
			script: invoke,
			options: { maxRetries: 0 },
		});
		expect(run.error?.message).toMatch(
			/^The service reported an error inside a successful \(200\) response: /,
		);
	});

	test('a Base URL without /v1: the 404 says so', async () => {
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: service().origin,
			model: 'echo-1',
			script: invoke,
		});
		expect(
			run.error?.message.startsWith(
				`The Base URL "${service().origin}" lacks the version segment /v1, so the service answered 404. `,
			),
		).toBe(true);
		expect(run.error?.message).toMatch(/Open the credential and add \/v1 to the Base URL/);
	});

	test('one-api\'s 503 "no channel" is the model outside the group, not an outage, and not retried', async () => {
		const run = await runProbe({
			apiKey: keys.faults,
			baseUrl: service().baseUrl,
			model: 'fault-503-one-api-no-channel',
			script: invoke,
		});
		expect(run.error?.message).toMatch(
			/^Model "fault-503-one-api-no-channel" is not available to this API key's group: the gateway has no channel for it\. The service answered "当前分组/,
		);
		expect(await service().requests()).toHaveLength(1);
	});

	test('a reply cut by Maximum Tokens is an error that names the limit', async () => {
		const run = await probe(
			'echo-1',
			async (model) => ({ text: (await model.invoke('one two three four')).text }),
			{ maxTokens: 2 },
		);
		expect(run.error?.message).toBe(
			"The model's reply was cut off at the token limit after 2 tokens: Options > Maximum Tokens (2). The reply is not passed on as a complete answer. Raise Options > Maximum Tokens, or ask for a shorter answer in the prompt.",
		);
	});

	test('a bad option fails before anything is sent, naming the field', async () => {
		const run = await probe('echo-1', invoke, { temperature: 5 });
		expect(run.error?.message).toMatch(
			/^Temperature: must be from 0 to 2, got 5\. Use a value from 0 to 2/,
		);
		expect(await service().requests()).toHaveLength(0);
	});
});

describe('retries, with the rules of Chat Completion', () => {
	test('a 429 with Retry-After is retried once, after the wait asked, and succeeds', async () => {
		const started = Date.now();
		const reply = await answer(
			'echo-1',
			async (model) => ({ text: (await model.invoke('hello')).text }),
			knobs({ fail_first: { id: 'model-429', count: 1, status: 429, retry_after: '1' } }).options,
		);
		expect(reply.text).toBe('hello');
		const requests = await service().requests();
		expect(requests).toHaveLength(2);
		expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(990);
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	test('Max Wait on Rate Limit 0: the first 429 is the error, with the wait the service asked', async () => {
		const run = await probe(
			'echo-1',
			async (model) => ({ text: (await model.invoke('hello')).text }),
			{
				...knobs({
					fail_first: { id: 'model-429-no-wait', count: 1, status: 429, retry_after: '1' },
				}).options,
				maxRateLimitWait: 0,
			},
		);
		expect(run.error?.message).toMatch(
			/^Too many requests: the service's rate limit for this key was reached\. .*The service asks to wait 1 s\./,
		);
		expect(await service().requests()).toHaveLength(1);
	});

	test('a 503 is retried up to Max Retries, then the error says how often it was tried', async () => {
		const run = await probe(
			'echo-1',
			async (model) => ({ text: (await model.invoke('hello')).text }),
			{
				...knobs({ fail_first: { id: 'model-503', count: 5, status: 503 } }).options,
				maxRetries: 1,
			},
		);
		expect(run.error?.message).toMatch(
			/^The service or a gateway in front of it is unavailable \(503\), after 2 attempts\. The service answered/,
		);
		expect(await service().requests()).toHaveLength(2);
	});

	test("OpenAI's 429 insufficient_quota is not retried", async () => {
		const run = await runProbe({
			apiKey: keys.faults,
			baseUrl: service().baseUrl,
			model: 'fault-429-quota',
			script: async (model) => ({ text: (await model.invoke('hello')).text }),
		});
		expect(run.error?.message).toMatch(/^The account behind this API key has run out of balance/);
		expect(await service().requests()).toHaveLength(1);
	});
});

describe('cancelling', () => {
	test('cancelling the execution stops the request at once', async () => {
		const controller = new AbortController();
		const started = Date.now();
		setTimeout(() => controller.abort(), 500);
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: service().baseUrl,
			model: 'echo-1',
			options: knobs({ slow_ms: 20_000 }).options,
			signal: controller.signal,
			script: async (model, context) => ({
				text: (await model.invoke('hello', { signal: context.getExecutionCancelSignal() })).text,
			}),
		});
		expect(run.status).toBe('canceled');
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	test("the AI node's own signal stops the request too", async () => {
		const started = Date.now();
		const run = await probe(
			'echo-1',
			async (model) => {
				const controller = new AbortController();
				setTimeout(() => controller.abort(), 300);
				try {
					await model.invoke('hello', { signal: controller.signal });
					return { stopped: false };
				} catch (error) {
					return { stopped: true, name: (error as Error).name, message: (error as Error).message };
				}
			},
			knobs({ slow_ms: 20_000 }).options,
		);
		// Stopped by the cancel, not by some other failure.
		expect(run.output).toEqual({
			stopped: true,
			name: 'NodeApiError',
			message: expect.stringMatching(
				/^The service at .* was left because the execution was cancelled\. Nothing to fix: the execution was stopped\.$/,
			),
		});
		expect(Date.now() - started).toBeLessThan(5_000);
	});
});

describe('streaming to a chat', () => {
	test('the probe runs in streaming mode: chunks reach n8n', async () => {
		const chunks: StructuredChunk[] = [];
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: service().baseUrl,
			model: 'echo-1',
			onChunk: (chunk) => chunks.push(chunk),
			script: async (model, context) => {
				let text = '';
				context.sendChunk('begin', 0);
				for await (const chunk of await model.stream('a b c')) {
					context.sendChunk('item', 0, chunk.text);
					text += chunk.text;
				}
				context.sendChunk('end', 0);
				return { text };
			},
		});
		expect(run.output).toEqual({ text: 'a b c' });
		expect(
			chunks
				.filter((chunk) => chunk.type === 'item')
				.map((chunk) => chunk.content)
				.join(''),
		).toBe('a b c');
	});
});
