import { z } from 'zod';

import type { Tool } from '@n8n/ai-node-sdk';

import { InputError } from '../../../engine/failures/errors';
import { callFormat } from '../../../nodes/LmChatCompletions/model/call-options';
import { fitAdapter } from '../../../nodes/LmChatCompletions/model/langchain-adapter';
import { ChatCompletionsModel } from '../../../nodes/LmChatCompletions/model/model';
import { toolChoiceOf } from '../../../nodes/LmChatCompletions/model/tool-choice';
import { toolDefinitions } from '../../../nodes/LmChatCompletions/model/tools';

describe('tools bound by an AI node', () => {
	test('Zod and JSON Schema tools as protocol tools, without $schema; provider tools left out', () => {
		expect(
			toolDefinitions([
				{
					type: 'function',
					name: 'weather',
					description: 'The weather',
					inputSchema: z.object({ city: z.string() }),
				},
				{
					type: 'function',
					name: 'now',
					inputSchema: {
						$schema: 'http://json-schema.org/draft-07/schema#',
						type: 'object',
						properties: {},
					},
					strict: true,
				},
				{ type: 'provider', name: 'web_search' },
			]),
		).toEqual([
			{
				type: 'function',
				function: {
					name: 'weather',
					description: 'The weather',
					parameters: {
						type: 'object',
						properties: { city: { type: 'string' } },
						required: ['city'],
						additionalProperties: false,
					},
				},
			},
			{
				type: 'function',
				function: { name: 'now', parameters: { type: 'object', properties: {} }, strict: true },
			},
		]);
	});
});

describe('tool_choice as LangChain spells it', () => {
	const bound = ['weather', 'clock'];

	test('any and required become "required"; auto and none stay; a name becomes that function', () => {
		expect(toolChoiceOf('any', bound)).toBe('required');
		expect(toolChoiceOf('required', bound)).toBe('required');
		expect(toolChoiceOf({ type: 'any' }, bound)).toBe('required');
		expect(toolChoiceOf('auto', bound)).toBe('auto');
		expect(toolChoiceOf('none', bound)).toBe('none');
		expect(toolChoiceOf(undefined, bound)).toBeUndefined();
		const clock = { type: 'function', function: { name: 'clock' } };
		expect(toolChoiceOf('clock', bound)).toEqual(clock);
		expect(toolChoiceOf(clock, bound)).toEqual(clock);
		expect(toolChoiceOf({ type: 'tool', name: 'clock' }, bound)).toEqual(clock);
	});

	test('a tool that is not bound, a tool call without tools, and no choice at all are refused', () => {
		expect(() => toolChoiceOf('search', bound)).toThrow(
			new InputError(
				'tool_choice',
				'names the tool "search", which is not bound (bound: "weather", "clock")',
				'',
			),
		);
		let forced: unknown;
		try {
			toolChoiceOf('any', []);
		} catch (error) {
			forced = error;
		}
		// What a user who switched on Force Tool Call on First Iteration without tools reads, and the fix.
		expect(forced).toMatchObject({
			message:
				'tool_choice: "any" asks the model to call a tool, but no tool is connected to the AI node',
			fix: expect.stringMatching(
				/^Connect a tool to the AI Agent, or switch off its option Force Tool Call on First Iteration/,
			),
		});
		expect(toolChoiceOf('auto', [])).toBeUndefined();
		expect(() => toolChoiceOf({ type: 7 }, bound)).toThrow(
			'tool_choice: {"type":7} is not a tool choice',
		);
	});

	test('binding again never duplicates a tool: the same name replaces the one bound before', () => {
		const tool = (name: string, description: string): Tool => ({
			type: 'function',
			name,
			description,
			inputSchema: { type: 'object', properties: {} },
		});
		const model = new ChatCompletionsModel(
			{} as never,
			{ connection: {} as never, model: 'm', options: {} },
			{} as never,
		);
		const twice = model
			.withTools([tool('weather', 'first'), tool('clock', 'time')])
			.withTools([tool('weather', 'second')]) as ChatCompletionsModel;
		const names = twice
			.request([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], undefined, false)
			.body.tools?.map(
				(definition) => `${definition.function.name}: ${definition.function.description}`,
			);
		expect(names).toEqual(['clock: time', 'weather: second']);
	});
});

describe("a call's response_format as the Chat Model's Response Format", () => {
	test('json_object, json_schema (with its name and strict), text; anything else is refused', () => {
		expect(callFormat(undefined)).toEqual({ options: {} });
		expect(callFormat({ type: 'text' })).toEqual({ options: { responseFormat: 'text' } });
		expect(callFormat({ type: 'json_object' })).toEqual({
			options: { responseFormat: 'jsonObject' },
		});
		const schema = { type: 'object' };
		expect(
			callFormat({ type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } }),
		).toEqual({
			options: { responseFormat: 'jsonSchema', jsonSchema: schema, strictSchema: true },
			schemaName: 'answer',
		});
		expect(() => callFormat({ type: 'json_schema', json_schema: { name: 'answer' } })).toThrow(
			'response_format: has no json_schema.schema object',
		);
		expect(() => callFormat({ type: 'xml' })).toThrow('response_format: has the type "xml"');
	});
});

describe("fitting n8n's LangChain adapter", () => {
	function fakeAdapter() {
		const tracing = {
			options: {
				tokensUsageParser: (result: { llmOutput?: { tokenUsage?: Record<string, number> } }) => {
					const usage = result.llmOutput?.tokenUsage;
					const completionTokens = usage?.output_tokens ?? 0;
					const promptTokens = usage?.input_tokens ?? 0;
					return { completionTokens, promptTokens, totalTokens: completionTokens + promptTokens };
				},
			},
		};
		const adapter = {
			callbacks: [tracing],
			bindTools(): unknown {
				return fakeAdapter().adapter;
			},
		};
		return { adapter, tracing };
	}

	test("LangChain's names for the counts (promptTokens, completionTokens) are counted, the adapter's own too", () => {
		const { adapter, tracing } = fakeAdapter();
		fitAdapter(adapter);
		const parse = tracing.options.tokensUsageParser;
		expect(
			parse({
				llmOutput: { tokenUsage: { promptTokens: 7, completionTokens: 5, totalTokens: 12 } },
			}),
		).toEqual({
			promptTokens: 7,
			completionTokens: 5,
			totalTokens: 12,
		});
		expect(parse({ llmOutput: { tokenUsage: { input_tokens: 7, output_tokens: 5 } } })).toEqual({
			promptTokens: 7,
			completionTokens: 5,
			totalTokens: 12,
		});
		expect(parse({})).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
	});

	test('adapters made by bindTools are fitted too; JSON output is announced to the Basic LLM Chain', () => {
		const { adapter } = fakeAdapter();
		fitAdapter(adapter, { jsonOutput: true });
		const bound = adapter.bindTools() as ReturnType<typeof fakeAdapter>['adapter'] & {
			metadata?: unknown;
		};
		expect(bound.metadata).toEqual({ output_format: 'json' });
		expect(
			(bound.callbacks[0].options.tokensUsageParser as (result: unknown) => unknown)({
				llmOutput: { tokenUsage: { promptTokens: 1, completionTokens: 1 } },
			}),
		).toEqual({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
	});

	test('an adapter of another shape is left as it is', () => {
		expect(fitAdapter(undefined)).toBeUndefined();
		const other = { invoke: () => 'x' };
		expect(fitAdapter(other)).toBe(other);
	});
});
