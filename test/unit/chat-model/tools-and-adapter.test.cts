import { z } from 'zod';

import { fitAdapter } from '../../../nodes/LmChatCompletions/model/langchain-adapter';
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

describe("fitting n8n's LangChain adapter", () => {
	function fakeAdapter() {
		const seen: unknown[] = [];
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
			_generate(messages: unknown[]) {
				seen.push(...messages);
				return 'generated';
			},
			bindTools(): unknown {
				return fakeAdapter().adapter;
			},
		};
		return { adapter, tracing, seen };
	}

	test("streamed usage (promptTokens, completionTokens) is counted, the adapter's own too", () => {
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

	test('image_url parts reach the adapter as standard image parts; other messages untouched', () => {
		const { adapter, seen } = fakeAdapter();
		fitAdapter(adapter);
		class Message {
			constructor(readonly content: unknown) {}
		}
		const plain = new Message('hello');
		const withImage = new Message([
			{ type: 'text', text: 'What is it?' },
			{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
			{ type: 'image_url', image_url: 'https://example.com/a.png' },
		]);
		expect(adapter._generate([plain, withImage])).toBe('generated');
		expect(seen[0]).toBe(plain);
		expect(seen[1]).toBeInstanceOf(Message);
		expect((seen[1] as Message).content).toEqual([
			{ type: 'text', text: 'What is it?' },
			{ type: 'image', url: 'data:image/png;base64,AAAA', metadata: { detail: 'low' } },
			{ type: 'image', url: 'https://example.com/a.png' },
		]);
		expect(withImage.content).toHaveLength(3);
		expect((withImage.content as Array<{ type: string }>)[1].type).toBe('image_url');
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
