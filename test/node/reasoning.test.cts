/**
 * Reasoning models through n8n's engine: the Chat Completion node's tool loop with a model in DeepSeek's
 * thinking mode (`think-tools-1` refuses a tool-call message sent back without its reasoning, with
 * DeepSeek's 400), both ways (Tool Call ID / Tool Result fields, and Messages JSON), streamed and not; and
 * Reasoning Effort on the wire.
 */
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	StructuredChunk,
} from 'n8n-workflow';

import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	simpleParameters,
} from '../support/chat-node.cts';
import { checkEveryRequestConforms } from '../support/conformance.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

checkEveryRequestConforms(service);

const city = JSON.stringify({
	type: 'object',
	properties: { city: { type: 'string' } },
	required: ['city'],
});
const thinking = (options: INodeParameters = {}): INodeParameters => ({
	model: modelFromList('think-tools-1'),
	promptType: 'json',
	toolsMode: 'define',
	tools: { values: [{ name: 'weather', description: 'Weather in a city', parameters: city }] },
	options,
});
const question = jsonItems({
	messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }],
});
const answer = (calls: INodeExecutionData[]) =>
	calls.map((item) => ({
		json: { ...item.json, result: `sunny in ${(item.json.args as IDataObject).city}` },
	}));

async function run(
	parameters: INodeParameters,
	items: INodeExecutionData[],
	onChunk?: (chunk: StructuredChunk) => void,
) {
	const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters,
		items,
		settings: { onError: 'continueRegularOutput' },
		onChunk,
	});
	expect(error).toBeUndefined();
	return outputs;
}

const sentMessages = async () =>
	(await service().requests()).map(
		(request) => (request.body as IDataObject).messages as IDataObject[],
	);

describe('a thinking tool loop (DeepSeek thinking mode) completes in the Chat Completion node', () => {
	test.each([
		['reasoning_content (DeepSeek)', 'reasoning_content', {}],
		['reasoning (OpenRouter), streamed', 'reasoning', { stream: true }],
	] as Array<[string, string, INodeParameters]>)(
		'Tool Call ID / Tool Result fields: %s; the reasoning goes back under the name the service used',
		async (_name, field, options) => {
			const parameters = thinking(knobs({ reasoning_field: field }, options).options);
			const [replies, calls] = await run(parameters, question);
			expect(replies).toEqual([]);
			expect(calls.map((item) => item.json.reasoning)).toEqual([
				'Reasoning about: Weather in Paris and Tokyo?',
				'Reasoning about: Weather in Paris and Tokyo?',
			]);
			expect(calls[0].json.message).toMatchObject({
				content: null,
				[field]: 'Reasoning about: Weather in Paris and Tokyo?',
			});
			const [[final]] = await run(parameters, answer(calls));
			expect(final.json.content).toBe(
				'Based on the tools: weather({"city":"Paris"}) = sunny in Paris; weather({"city":"Tokyo"}) = sunny in Tokyo',
			);
			expect(final.json.reasoning).toBe('Reasoning about: the tool results');
			const [, second] = await sentMessages();
			expect(second[1]).toEqual(calls[0].json.message);
			expect(Object.keys(second[1])).toEqual(['role', 'content', field, 'tool_calls']);
			expect(
				second
					.filter((message) => message.role !== 'assistant')
					.every((message) => !(field in message)),
			).toBe(true);
		},
	);

	test("Messages JSON: the reply's messages mapped into the next node, with the tool results appended", async () => {
		const [, calls] = await run(thinking(), question);
		const messages = [
			...(calls[0].json.messages as IDataObject[]),
			...calls.map((item) => ({ role: 'tool', tool_call_id: item.json.id, content: 'rain' })),
		];
		const [[final]] = await run({ ...thinking(), toolsMode: 'none' }, jsonItems({ messages }));
		expect(final.json.content).toMatch(/^Based on the tools: weather/);
		expect((final.json.messages as IDataObject[])[1]).toEqual(calls[0].json.message);
	});

	test("without its reasoning the service refuses the message with DeepSeek's 400, and the node says so", async () => {
		const [, calls] = await run(thinking(), question);
		const { reasoning_content: _dropped, ...withoutReasoning } = calls[0].json
			.message as IDataObject;
		const messages = [
			{ role: 'user', content: 'Weather in Paris and Tokyo?' },
			withoutReasoning,
			...calls.map((item) => ({ role: 'tool', tool_call_id: item.json.id, content: 'rain' })),
		];
		const [[failed]] = await run({ ...thinking(), toolsMode: 'none' }, jsonItems({ messages }));
		expect(failed.json.error).toContain(
			'Missing `reasoning_content` field in the assistant message at message index 1. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls',
		);
		expect(failed.json.error_details).toMatchObject({
			http_code: 400,
			description: expect.stringContaining('wants that reasoning back'),
		});
	});

	test('a message that came without reasoning is sent back without a reasoning field', async () => {
		const [, calls] = await run({ ...thinking(), model: modelFromList('tools-1') }, question);
		expect(calls[0].json).not.toHaveProperty('reasoning');
		await run({ ...thinking(), model: modelFromList('tools-1') }, answer(calls));
		const [, second] = await sentMessages();
		expect(Object.keys(second[1])).toEqual(['role', 'content', 'tool_calls']);
	});
});

describe('streaming with reasoning: the reasoning never reaches the chat', () => {
	test.each([
		['reasoning_content', 'think-1'],
		['an inline <think> block', 'think-inline-1'],
	])('%s', async (_name, model) => {
		const chunks: StructuredChunk[] = [];
		const [[item]] = await run(
			simpleParameters('Why is the sky blue', model, { options: { stream: true } }),
			jsonItems({}),
			(chunk) => chunks.push(chunk),
		);
		const streamed = chunks.filter((chunk) => chunk.type === 'item').map((chunk) => chunk.content);
		expect(streamed.join('')).toBe('Why is the sky blue');
		expect(streamed.join('')).not.toMatch(/Reasoning|think/);
		expect(item.json.reasoning).toBe('Reasoning about: Why is the sky blue');
		expect(chunks.map((chunk) => chunk.type).at(-1)).toBe('end');
	});
});

describe('Reasoning Effort', () => {
	test('sent as reasoning_effort when set, from the list or an expression; not sent when unset', async () => {
		await run(
			simpleParameters('Think hard', 'think-1', { options: { reasoningEffort: 'high' } }),
			jsonItems({}),
		);
		await run(
			simpleParameters('Think less', 'echo-1', {
				options: { reasoningEffort: '={{ $json.effort }}' },
			}),
			jsonItems({ effort: 'minimal' }),
		);
		await run(simpleParameters('Think as usual', 'think-1'), jsonItems({}));
		const bodies = (await service().requests()).map((request) => request.body as IDataObject);
		expect(bodies.map((body) => body.reasoning_effort)).toEqual(['high', 'minimal', undefined]);
		expect(bodies[2]).not.toHaveProperty('reasoning_effort');
	});

	test('a value the schema does not allow is refused before sending, naming the choices', async () => {
		const [[failed]] = await run(
			simpleParameters('x', 'echo-1', { options: { reasoningEffort: '={{ "extreme" }}' } }),
			jsonItems({}),
		);
		expect(failed.json.error).toBe('Reasoning Effort: has the unknown value "extreme" (item 0)');
		expect(await service().requests()).toEqual([]);
	});
});
