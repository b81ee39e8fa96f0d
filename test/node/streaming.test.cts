import type { IDataObject, INodeParameters, StructuredChunk } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node';
import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	simpleParameters,
} from '../support/chat-node.cts';
import { useEndedRuns } from '../support/ended-runs.cts';
import { exampleEngine } from '../support/examples.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();
const ended = useEndedRuns();

/** What a chat user reads when the node's settings are wrong: not the settings. */
const NOT_SET_UP =
	"The assistant is not set up correctly, so it cannot answer. Please let the workflow's owner know.";

const text = (chunks: StructuredChunk[]) =>
	chunks
		.filter((chunk) => chunk.type === 'item')
		.map((chunk) => chunk.content)
		.join('');

/** Runs one item with On Error: Stop Workflow in a streaming run; returns the run's error and every chunk. */
async function stopped(parameters: INodeParameters) {
	const chunks: StructuredChunk[] = [];
	const { error } = await ended(
		async (signal) =>
			await engineWith(keys.default, service().baseUrl).runNode({
				type: NODE_TYPE,
				parameters,
				items: jsonItems({}),
				onChunk: (chunk) => chunks.push(chunk),
				signal,
			}),
	);
	return { error, chunks };
}

async function reply(parameters: INodeParameters, onChunk?: (chunk: StructuredChunk) => void) {
	const { outputs, error } = await ended(
		async (signal) =>
			await engineWith(keys.default, service().baseUrl).runNode({
				type: NODE_TYPE,
				parameters,
				items: jsonItems({}),
				settings: { onError: 'continueRegularOutput' },
				onChunk,
				signal,
			}),
	);
	expect(error).toBeUndefined();
	return outputs;
}

/** The item without what differs between two calls by nature: ids and tool call ids. */
function comparable(json: IDataObject): IDataObject {
	const text = JSON.stringify(json).replace(/"(chatcmpl|call)[-_][0-9a-zA-Z]+"/g, '"<id>"');
	return JSON.parse(text) as IDataObject;
}

const tools = {
	toolsMode: 'define',
	tools: {
		values: [
			{
				name: 'weather',
				parameters: JSON.stringify({
					type: 'object',
					properties: { city: { type: 'string' } },
					required: ['city'],
				}),
			},
		],
	},
};

describe('streamed and not streamed give equal items', () => {
	test.each([
		['text', simpleParameters('The quick brown fox jumps over the lazy dog', 'echo-1')],
		['reasoning', simpleParameters('Why is the sky blue', 'think-1')],
		['inline reasoning', simpleParameters('Why is the sky blue', 'think-inline-1')],
		[
			'a length cut',
			simpleParameters('one two three four five', 'echo-1', { options: { maxTokens: 3 } }),
		],
		[
			'parallel tool calls',
			{
				model: modelFromList('tools-1'),
				promptType: 'simple',
				prompt: 'Weather in Paris and Tokyo?',
				...tools,
			},
		],
	] as Array<[string, INodeParameters]>)('%s', async (_name, parameters) => {
		const plain = await reply(parameters);
		const options = {
			...(((parameters as INodeParameters).options as INodeParameters) ?? {}),
			stream: true,
		};
		const streamed = await reply({ ...parameters, options });
		expect(streamed.map((output) => output.map((item) => comparable(item.json)))).toEqual(
			plain.map((output) => output.map((item) => comparable(item.json))),
		);
		const [, second] = await service().requests();
		expect(second.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
	});

	test('Stream Usage off sends no stream_options', async () => {
		const [[item]] = await reply(
			simpleParameters('no usage please', 'echo-1', {
				options: { stream: true, streamUsage: false },
			}),
		);
		expect(item.json.content).toBe('no usage please');
		const [request] = await service().requests();
		expect(request.body).toMatchObject({ stream: true });
		expect(request.body).not.toHaveProperty('stream_options');
	});
});

describe('every way gateways send events is read the same', () => {
	const text = 'Grüße aus Köln, 漢字 und 🎉 emoji: the whole reply survives splitting.';
	test.each([
		['comments', { comments: true }],
		['CRLF line ends', { line_end: 'crlf' }],
		['CR line ends', { line_end: 'cr' }],
		['data: without a space', { no_space: true }],
		['multi-line data', { multiline: true }],
		['role in every delta', { role_every_delta: true }],
		['3-byte network writes (inside UTF-8 characters)', { split_bytes: 3 }],
		['several words per chunk', { chunk_words: 4 }],
		['a service that ignores stream: true', { ignore_stream: true }],
	])('%s', async (_name, knob) => {
		const [[item]] = await reply(
			simpleParameters('ignored', 'echo-1', knobs({ ...knob, text }, { stream: true })),
		);
		expect(item.json.content).toBe(text);
		expect(item.json.finish_reason).toBe('stop');
	});
});

describe('a stream that fails is never a silent partial success', () => {
	test.each([
		[
			'an error object in the stream',
			{ error_after: 2 },
			/^The service reported an error inside a successful \(200\) response: upstream stream failed/,
		],
		[
			'an error object followed by [DONE]',
			{ error_after: 2, done_after_error: true },
			/upstream stream failed/,
		],
		[
			'an event: error',
			{ event_error: true },
			/^The service reported an error inside a successful \(200\) response/,
		],
		[
			'a stream cut off before [DONE]',
			{ cut_after: 3 },
			/^The stream ended before the reply was complete/,
		],
	])('%s', async (_name, knob, message) => {
		const [[item]] = await reply(
			simpleParameters(
				'one two three four five six',
				'echo-1',
				knobs(knob, { stream: true, maxRetries: 0 }),
			),
		);
		expect(item.json.error).toMatch(message);
		expect(item.json.content).toBeUndefined();
	});

	test('an error status with a JSON or HTML body maps as without streaming', async () => {
		const engine = engineWith(keys.faults, service().baseUrl);
		for (const [model, message] of [
			['fault-500', 'The service failed while answering (500) (item 0)'],
			['fault-html-502', 'The service or a gateway in front of it is unavailable (502) (item 0)'],
			[
				'fault-503-model-not-found',
				'Model "fault-503-model-not-found" is not available to this API key (item 0)',
			],
		]) {
			const { outputs } = await ended(
				async (signal) =>
					await engine.runNode({
						type: NODE_TYPE,
						parameters: simpleParameters('hi', model, { options: { stream: true, maxRetries: 0 } }),
						items: jsonItems({}),
						settings: { onError: 'continueRegularOutput' },
						signal,
					}),
			);
			expect(outputs[0][0].json.error).toBe(message);
		}
	});
});

describe('n8n chat streaming', () => {
	test('text deltas reach the client as they arrive, and the full item is still returned', async () => {
		const chunks: StructuredChunk[] = [];
		const [[item]] = await reply(
			simpleParameters('stream this to the chat', 'echo-1', { options: { stream: true } }),
			(chunk) => chunks.push(chunk),
		);
		expect(item.json.content).toBe('stream this to the chat');
		const types = chunks.map((chunk) => chunk.type);
		expect(types[0]).toBe('begin');
		expect(types[types.length - 1]).toBe('end');
		const deltas = chunks.filter((chunk) => chunk.type === 'item');
		expect(deltas.length).toBeGreaterThan(3);
		expect(deltas.map((chunk) => chunk.content).join('')).toBe('stream this to the chat');
		expect(chunks.every((chunk) => chunk.metadata.itemIndex === 0)).toBe(true);
	});

	test('a chat client that fails to take a chunk (queue mode: Redis gone) costs neither the reply nor an unhandled rejection', async () => {
		const rejections: unknown[] = [];
		const count = (reason: unknown) => rejections.push(reason);
		process.on('unhandledRejection', count);
		try {
			const [[item]] = await reply(
				simpleParameters('nobody is listening', 'echo-1', { options: { stream: true } }),
				async () => {
					throw new Error('Connection is closed.');
				},
			);
			expect(item.json.content).toBe('nobody is listening');
			// Rejections are reported after the microtask queue drains.
			await new Promise((resolve) => setImmediate(resolve));
			expect(rejections).toEqual([]);
		} finally {
			process.off('unhandledRejection', count);
		}
	});

	test('Stream not added: the node streams because the workflow streams its response', async () => {
		const chunks: StructuredChunk[] = [];
		const [[item]] = await reply(
			simpleParameters('follow the workflow please', 'echo-1'),
			(chunk) => chunks.push(chunk),
		);
		expect(item.json.content).toBe('follow the workflow please');
		const [request] = await service().requests();
		expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
		expect(chunks.map((chunk) => chunk.type)).toEqual([
			'begin',
			'item',
			'item',
			'item',
			'item',
			'end',
		]);
		expect(text(chunks)).toBe('follow the workflow please');
	});

	test('Stream not added and a workflow that does not stream: one request without stream', async () => {
		const [[item]] = await reply(simpleParameters('no chat here', 'echo-1'));
		expect(item.json.content).toBe('no chat here');
		const [request] = await service().requests();
		expect(request.body).not.toHaveProperty('stream');
	});

	test('Stream off behind a streaming trigger: not streamed, but the whole reply reaches the client as one piece', async () => {
		const chunks: StructuredChunk[] = [];
		const [[item]] = await reply(
			simpleParameters('the whole reply at once', 'echo-1', { options: { stream: false } }),
			(chunk) => chunks.push(chunk),
		);
		expect(item.json.content).toBe('the whole reply at once');
		const requests = await service().requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].body).not.toHaveProperty('stream');
		expect(chunks.map(({ type, content }) => [type, content])).toEqual([
			['begin', undefined],
			['item', 'the whole reply at once'],
			['end', undefined],
		]);
	});

	test('with On Error: Continue, a stream that fails part way tells the client what went wrong, and does not end normally', async () => {
		const chunks: StructuredChunk[] = [];
		const [[item]] = await reply(
			simpleParameters(
				'one two three four five six',
				'echo-1',
				knobs({ error_after: 2 }, { maxRetries: 0 }),
			),
			(chunk) => chunks.push(chunk),
		);
		expect(item.json.error).toMatch(
			/^The service reported an error inside a successful \(200\) response: upstream stream failed/,
		);
		expect(chunks.map((chunk) => chunk.type)).toEqual(['begin', 'item', 'item', 'error']);
		// A chat user's words: no address, no fix meant for the workflow's owner (the item keeps those).
		expect(chunks[chunks.length - 1].content).toBe(
			'The assistant is unavailable right now. Please try again in a moment.',
		);
		expect(item.json.error).toMatch(/run again later or choose another model\. \(item 0\)$/);
	});

	test('with On Error: Continue, an invalid item tells the chat it cannot answer, the item keeps the problem and the fix; nothing is sent', async () => {
		const chunks: StructuredChunk[] = [];
		const [[item]] = await reply(
			simpleParameters('hi', 'echo-1', { options: { temperature: 3 } }),
			(chunk) => chunks.push(chunk),
		);
		expect(item.json.error).toBe(
			'Temperature: must be from 0 to 2, got 3. Use a value from 0 to 2, e.g. 0.7. (item 0)',
		);
		expect(chunks.map(({ type, content }) => [type, content])).toEqual([['error', NOT_SET_UP]]);
		expect(await service().requests()).toEqual([]);
	});

	test("with Stop Workflow, the error n8n sends a streaming client is in a chat user's words; the execution keeps the problem and the fix", async () => {
		const { error, chunks } = await stopped(
			simpleParameters('hi', 'echo-1', { options: { temperature: 3 } }),
		);
		expect(error?.message).toBe(
			'Temperature: must be from 0 to 2, got 3. Use a value from 0 to 2, e.g. 0.7. (item 0)',
		);
		expect(chunks.map(({ type, content }) => [type, content])).toEqual([['error', NOT_SET_UP]]);
		expect(await service().requests()).toEqual([]);
	});

	test("with Stop Workflow, a stream that fails part way gets n8n's error chunk with the problem, not a normal end", async () => {
		const { error, chunks } = await stopped(
			simpleParameters(
				'one two three four five six',
				'echo-1',
				knobs({ cut_after: 2 }, { maxRetries: 0 }),
			),
		);
		expect(error?.message).toMatch(/^The stream ended before the reply was complete/);
		expect(chunks.map((chunk) => chunk.type)).toEqual(['begin', 'item', 'item', 'error']);
		expect(error?.message).toMatch(/Gateways end a reply this way/);
		expect(chunks[3].content).toBe(
			'The assistant could not answer this message. Please try again, or put it another way.',
		);
	});

	test('a Webhook workflow in streaming response mode receives the deltas of the node', async () => {
		const chunks: StructuredChunk[] = [];
		const engine = exampleEngine(
			{ node: new ChatCompletion(), credential: new ChatCompletionsApi() },
			keys.default,
			service().baseUrl,
		);
		const { runData, error } = await ended(
			async (signal) =>
				await engine.runWorkflow({
					signal,
					workflow: {
						nodes: [
							{
								id: 'hook',
								name: 'Webhook',
								type: 'n8n-nodes-base.webhook',
								typeVersion: 2.1,
								position: [0, 0],
								webhookId: 'chat-stream',
								parameters: {
									httpMethod: 'POST',
									path: 'chat',
									responseMode: 'streaming',
									options: {},
								},
							},
							{
								id: 'chat',
								name: 'Chat Completion',
								type: NODE_TYPE,
								typeVersion: 1,
								position: [220, 0],
								parameters: simpleParameters('={{ $json.body.question }}', 'echo-1', {
									options: { stream: true },
								}),
							},
						],
						connections: {
							Webhook: { main: [[{ node: 'Chat Completion', type: 'main', index: 0 }]] },
						},
					},
					startNode: 'Webhook',
					items: [{ json: { body: { question: 'tell me a story in nine short words please' } } }],
					onChunk: (chunk) => chunks.push(chunk),
				}),
		);
		expect(error).toBeUndefined();
		const deltas = chunks.filter(
			(chunk) => chunk.type === 'item' && chunk.metadata.nodeName === 'Chat Completion',
		);
		expect(deltas.length).toBeGreaterThanOrEqual(9);
		expect(deltas.map((chunk) => chunk.content).join('')).toBe(
			'tell me a story in nine short words please',
		);
		expect(runData['Chat Completion'][0].data?.main[0]?.[0].json.content).toBe(
			'tell me a story in nine short words please',
		);
	});
});
