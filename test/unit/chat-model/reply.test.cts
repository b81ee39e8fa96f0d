import {
	CutReplyError,
	ToolArgumentsError,
	UnknownToolError,
} from '../../../engine/failures/errors';
import {
	checkCalledTools,
	generateResult,
	tokenUsage,
} from '../../../nodes/LmChatCompletions/model/reply';
import type { Completion } from '../../../engine/protocol';

function completion(
	message: Record<string, unknown>,
	finish: string | null = 'stop',
	usage?: Record<string, unknown>,
): Completion {
	return {
		id: 'chatcmpl-1',
		model: 'm-2026',
		choices: [{ index: 0, message, finish_reason: finish }],
		usage,
	} as Completion;
}

describe('a completion into the result n8n takes', () => {
	test('text, finish reason, usage', () => {
		const result = generateResult(
			completion({ role: 'assistant', content: 'Hi' }, 'stop', {
				prompt_tokens: 3,
				completion_tokens: 1,
				total_tokens: 4,
			}),
		);
		expect(result).toMatchObject({
			id: 'chatcmpl-1',
			finishReason: 'stop',
			usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 },
			message: { role: 'assistant', content: [{ type: 'text', text: 'Hi' }] },
		});
	});

	test.each([
		['tool_calls', 'tool-calls'],
		['function_call', 'tool-calls'],
		['content_filter', 'content-filter'],
		['something_else', 'other'],
	])('finish_reason %s is %s', (wire, sdk) => {
		expect(generateResult(completion({ content: '' }, wire)).finishReason).toBe(sdk);
	});

	// The text comes first: n8n's Guardrails reads only `content[0]` (a string, or a part of type text) and
	// fails every LLM check with "Invalid content type" otherwise; n8n 2.16 to 2.31's Text Classifier,
	// Information Extractor, Sentiment Analysis and Basic LLM Chain read the content the same way.
	test.each([
		[
			'reasoning_content',
			{ content: 'Blue', reasoning_content: 'Light scatters' },
			'Light scatters',
		],
		["OpenRouter's reasoning", { content: 'Blue', reasoning: 'Light scatters' }, 'Light scatters'],
		['an inline <think> block', { content: '<think>Hmm</think>\nBlue' }, 'Hmm'],
	])('reasoning (%s) in its own part after the text', (_style, message, reasoning) => {
		expect(generateResult(completion(message)).message.content).toEqual([
			{ type: 'text', text: 'Blue' },
			{ type: 'reasoning', text: reasoning },
		]);
	});

	test('reasoning with empty content: an empty text part still comes first', () => {
		expect(
			generateResult(completion({ content: '', reasoning_content: 'Light scatters' })).message
				.content,
		).toEqual([
			{ type: 'text', text: '' },
			{ type: 'reasoning', text: 'Light scatters' },
		]);
	});

	test('with tool calls: the text, the reasoning, then the calls', () => {
		const content = generateResult(
			completion(
				{
					content: 'Let me look.',
					reasoning_content: 'Weather needs a tool',
					tool_calls: [
						{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } },
					],
				},
				'tool_calls',
			),
		).message.content;
		expect(content.map((part) => part.type)).toEqual(['text', 'reasoning', 'tool-call']);
	});

	test('a refusal is the text', () => {
		const result = generateResult(
			completion({ content: null, refusal: 'I cannot help with that.' }),
		);
		expect(result.message.content).toEqual([{ type: 'text', text: 'I cannot help with that.' }]);
		expect(result.providerMetadata).toMatchObject({ refusal: 'I cannot help with that.' });
	});

	test('tool calls with ids; arguments checked; empty arguments are {}', () => {
		const result = generateResult(
			completion(
				{
					content: null,
					tool_calls: [
						{
							id: 'call_a',
							type: 'function',
							function: { name: 'weather', arguments: '{"city":"Paris"}' },
						},
						{ type: 'function', function: { name: 'now', arguments: '' } },
					],
				},
				'tool_calls',
			),
		);
		expect(result.message.content).toEqual([
			{ type: 'tool-call', toolCallId: 'call_a', toolName: 'weather', input: '{"city":"Paris"}' },
			{ type: 'tool-call', toolCallId: 'call_chatcmpl-1_1', toolName: 'now', input: '{}' },
		]);
	});

	test('arguments that are not a JSON object are an error naming the tool', () => {
		const call = {
			id: 'c',
			type: 'function',
			function: { name: 'weather', arguments: '{"city": "Par' },
		};
		expect(() =>
			generateResult(completion({ content: null, tool_calls: [call] }, 'tool_calls')),
		).toThrow(new ToolArgumentsError('weather', '{"city": "Par'));
		const list = { ...call, function: { name: 'weather', arguments: '[1]' } };
		expect(() =>
			generateResult(completion({ content: null, tool_calls: [list] }, 'tool_calls')),
		).toThrow(ToolArgumentsError);
	});

	test('a reply cut at the token limit is an error with the text and the count', () => {
		let caught: unknown;
		try {
			generateResult(
				completion({ content: 'one two' }, 'length', { prompt_tokens: 5, completion_tokens: 2 }),
			);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(CutReplyError);
		expect(caught).toMatchObject({ partialContent: 'one two', completionTokens: 2 });
	});

	test('usage details: cached prompt tokens and reasoning tokens', () => {
		expect(
			tokenUsage({
				prompt_tokens: 10,
				completion_tokens: 20,
				total_tokens: 30,
				prompt_tokens_details: { cached_tokens: 4 },
				completion_tokens_details: { reasoning_tokens: 12 },
			} as Completion['usage']),
		).toEqual({
			promptTokens: 10,
			completionTokens: 20,
			totalTokens: 30,
			inputTokenDetails: { cacheRead: 4 },
			outputTokenDetails: { reasoning: 12 },
		});
		expect(tokenUsage(undefined)).toBeUndefined();
		expect(tokenUsage({ prompt_tokens: 2, completion_tokens: 3 })).toEqual({
			promptTokens: 2,
			completionTokens: 3,
			totalTokens: 5,
		});
	});

	test('a call of a tool that is not bound is an error naming it and the bound tools', () => {
		const result = generateResult(
			completion(
				{
					content: null,
					tool_calls: [
						{ id: 'c', type: 'function', function: { name: 'search', arguments: '{}' } },
					],
				},
				'tool_calls',
			),
		);
		expect(() => checkCalledTools(result, ['weather', 'time'])).toThrow(
			new UnknownToolError('search', ['weather', 'time']),
		);
		expect(new UnknownToolError('search', ['weather', 'time']).message).toBe(
			'The model called the tool "search", which is not connected to the AI node (its tools: "weather", "time")',
		);
		expect(() => checkCalledTools(result, ['search'])).not.toThrow();
		expect(() => checkCalledTools(result, [])).not.toThrow();
	});
});
