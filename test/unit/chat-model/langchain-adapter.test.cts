/**
 * The fit of n8n's LangChain adapter (langchain-adapter.ts), on the real adapter `supplyModel` makes, with a
 * scripted model in place of the service: what the model is asked (messages, call options, tools) and
 * what LangChain code gets back.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { AIMessageChunk } from '@langchain/core/messages';
import type { BaseChatModel as LangChainChatModel } from '@langchain/core/language_models/chat_models';
import { concat } from '@langchain/core/utils/stream';
import { BaseChatModel, supplyModel } from '@n8n/ai-node-sdk';
import type { GenerateResult, Message, StreamChunk, Tool } from '@n8n/ai-node-sdk';
import { z } from 'zod';

import { fitAdapter } from '../../../nodes/LmChatCompletions/model/langchain-adapter';
import type { AdapterFit } from '../../../nodes/LmChatCompletions/model/langchain-adapter';
import { protocolMessages } from '../../../nodes/LmChatCompletions/model/messages';

interface Seen {
	messages: Message[];
	config: Record<string, unknown>;
	tools: string[];
}

const text = (reply: string, extra: Partial<GenerateResult> = {}): GenerateResult => ({
	message: { role: 'assistant', content: [{ type: 'text', text: reply }] },
	finishReason: 'stop',
	...extra,
});

const call = (name: string, args: unknown): GenerateResult => ({
	message: {
		role: 'assistant',
		content: [
			{ type: 'tool-call', toolCallId: 'call_1', toolName: name, input: JSON.stringify(args) },
		],
	},
	finishReason: 'tool-calls',
});

/** Answers with its script, one reply per call, and records what it was asked. */
class Scripted extends BaseChatModel {
	constructor(
		readonly script: GenerateResult[],
		readonly seen: Seen[] = [],
	) {
		super('test', 'scripted-1');
	}

	private record(messages: Message[], config: unknown) {
		this.seen.push({
			messages,
			config: { ...(config as Record<string, unknown>) },
			tools: this.tools.map((tool: Tool) => tool.name),
		});
	}

	async generate(messages: Message[], config?: unknown): Promise<GenerateResult> {
		this.record(messages, config);
		return this.script.shift() ?? text('ok');
	}

	async *stream(messages: Message[], config?: unknown): AsyncIterable<StreamChunk> {
		this.record(messages, config);
		yield { type: 'text-delta', delta: 'Hi' };
		yield {
			type: 'finish',
			finishReason: 'stop',
			usage: {
				promptTokens: 10,
				completionTokens: 4,
				totalTokens: 14,
				inputTokenDetails: { cacheRead: 6 },
				outputTokenDetails: { reasoning: 3 },
			},
		};
	}
}

function fitted(script: GenerateResult[] = [], fit: AdapterFit = {}) {
	const model = new Scripted(script);
	const adapter = supplyModel(undefined as never, model).response as unknown as LangChainChatModel;
	fitAdapter(adapter, fit);
	return { adapter, seen: model.seen };
}

const weather = {
	type: 'function',
	function: {
		name: 'weather',
		parameters: { type: 'object', properties: { city: { type: 'string' } } },
	},
};

describe('tool_choice from bindTools and from call options', () => {
	test("bindTools(tools, { tool_choice: 'any' }) bound again (the AI Agent's Force Tool Call) keeps the choice", async () => {
		const { adapter, seen } = fitted();
		const forced = adapter.bindTools!([weather], { tool_choice: 'any' }) as LangChainChatModel;
		await forced.bindTools!([weather]).invoke('Weather in Paris?');
		expect(seen[0].config.tool_choice).toBe('any');
	});

	test("a call's own tool_choice wins; without one nothing is bound", async () => {
		const { adapter, seen } = fitted();
		const bound = adapter.bindTools!([weather], { tool_choice: 'any' });
		await bound.invoke('Hi', { tool_choice: 'none' } as never);
		await bound.invoke('Hi', { tool_choice: undefined } as never);
		await adapter.bindTools!([weather]).invoke('Hi');
		expect(seen.map((call) => call.config.tool_choice)).toEqual(['none', 'any', undefined]);
	});
});

describe('images and files in every LangChain form; other blocks refused before anything is sent', () => {
	const png = 'iVBORw0KGgo=';

	test('v0 url and base64, v1 url and data, image_url parts: all reach the service as image_url', async () => {
		const { adapter, seen } = fitted();
		await adapter.invoke([
			new HumanMessage({
				content: [
					{ type: 'text', text: 'Compare' },
					{ type: 'image', source_type: 'url', url: 'https://example.com/a.png' },
					{ type: 'image', source_type: 'base64', data: png, mime_type: 'image/png' },
					{ type: 'image', url: `data:image/png;base64,${png}` },
					{ type: 'image', data: png, mimeType: 'image/jpeg' },
					{ type: 'image_url', image_url: { url: 'https://example.com/b.png', detail: 'low' } },
					{ type: 'image_url', image_url: 'https://example.com/c.png' },
				],
			}),
		]);
		const [message] = protocolMessages(seen[0].messages);
		expect(message.content).toEqual([
			{ type: 'text', text: 'Compare' },
			{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
			{ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
			{ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${png}` } },
			{ type: 'image_url', image_url: { url: 'https://example.com/b.png', detail: 'low' } },
			{ type: 'image_url', image_url: { url: 'https://example.com/c.png' } },
		]);
	});

	test("files: v0 (the AI Agent's PDF passthrough, a data URL, plain text), v1 (data, data URL, text-plain) and OpenAI's file part", async () => {
		const { adapter, seen } = fitted();
		const pdf = 'JVBERi0xLjQ=';
		await adapter.invoke([
			new HumanMessage({
				content: [
					{ type: 'text', text: 'Read' },
					{
						type: 'file',
						source_type: 'base64',
						mime_type: 'application/pdf',
						data: pdf,
						metadata: { filename: 'invoice.pdf' },
					},
					{
						type: 'file',
						source_type: 'url',
						url: 'data:text/plain;base64,SGVsbG8=',
						mime_type: 'text/plain',
						metadata: { filename: 'hello.txt' },
					},
					{ type: 'file', source_type: 'text', text: 'Plain words' },
					{ type: 'file', data: pdf, mimeType: 'application/pdf' },
					{
						type: 'file',
						url: `data:application/pdf;base64,${pdf}`,
						metadata: { filename: 'b.pdf' },
					},
					{ type: 'text-plain', text: 'Notes', mimeType: 'text/markdown', title: 'notes.md' },
					{
						type: 'file',
						file: { filename: 'c.pdf', file_data: `data:application/pdf;base64,${pdf}` },
					},
				] as never,
			}),
		]);
		const [message] = protocolMessages(seen[0].messages);
		const pdfPart = (filename: string) => ({
			type: 'file',
			file: { filename, file_data: `data:application/pdf;base64,${pdf}` },
		});
		expect(message.content).toEqual([
			{ type: 'text', text: 'Read' },
			pdfPart('invoice.pdf'),
			{ type: 'text', text: '<file name="hello.txt">\nHello\n</file>' },
			{ type: 'text', text: '<file>\nPlain words\n</file>' },
			pdfPart('attachment.pdf'),
			pdfPart('b.pdf'),
			{ type: 'text', text: '<file name="notes.md">\nNotes\n</file>' },
			pdfPart('c.pdf'),
		]);
	});

	const cannotCarry =
		'which chat completions cannot carry (they take text, images and files such as PDFs)';

	test.each([
		[
			'audio',
			{ type: 'audio', source_type: 'base64', data: 'UklG', mime_type: 'audio/wav' },
			`part 2 is an audio block of type audio/wav, ${cannotCarry}`,
		],
		[
			'video (v1)',
			{ type: 'video', data: 'AAAA', mimeType: 'video/mp4' },
			`part 2 is a video block of type video/mp4, ${cannotCarry}`,
		],
		[
			'an audio file in a file block',
			{ type: 'file', data: 'UklG', mimeType: 'audio/wav' },
			`part 2 is a file block of type audio/wav, ${cannotCarry}`,
		],
		[
			"a provider's own block",
			{ type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
			`part 2 is an input_audio block, ${cannotCarry}`,
		],
		[
			'a PDF by link',
			{
				type: 'file',
				source_type: 'url',
				url: 'https://example.com/a.pdf',
				mime_type: 'application/pdf',
			},
			"part 2 is a file block of type application/pdf given by a link (https://example.com/a.pdf), and chat completions take a file's data, not its address",
		],
		[
			'a file by id',
			{ type: 'file', source_type: 'id', id: 'file-1', mime_type: 'application/pdf' },
			"part 2 is a file block of type application/pdf given by a file id, and chat completions take the file's data",
		],
		[
			'a file without a media type',
			{ type: 'file', source_type: 'base64', data: 'JVBE' },
			'part 2 is a file block without a media type',
		],
		[
			'an image given by a non-image data URL',
			{ type: 'image', url: 'data:text/plain;base64,SGVsbG8=' },
			`part 2 is an image block of type text/plain, ${cannotCarry}`,
		],
	])('%s: the message and the part are named', async (_name, part, problem) => {
		const { adapter, seen } = fitted();
		await expect(
			adapter.invoke([
				new AIMessage('Send me a file'),
				new HumanMessage({ content: [{ type: 'text', text: 'Read this' }, part as never] }),
			]),
		).rejects.toThrow(`Message 2 (user): ${problem}`);
		expect(seen).toHaveLength(0);
	});
});

test('streamed usage keeps the cached input and reasoning tokens', async () => {
	const { adapter } = fitted();
	let whole: AIMessageChunk | undefined;
	for await (const chunk of await adapter.stream('Hello'))
		whole = whole ? concat(whole, chunk) : chunk;
	expect(whole?.usage_metadata).toEqual({
		input_tokens: 10,
		output_tokens: 4,
		total_tokens: 14,
		input_token_details: { cache_read: 6 },
		output_token_details: { reasoning: 3 },
	});
});

test("LangSmith's parameters: model name, temperature, maximum tokens, stop", () => {
	const { adapter } = fitted([], {
		tracing: { model: 'tools-1', temperature: 0.3, maxTokens: 99 },
	});
	expect(adapter.getLsParams({ stop: ['END'] } as never)).toMatchObject({
		ls_model_type: 'chat',
		ls_model_name: 'tools-1',
		ls_temperature: 0.3,
		ls_max_tokens: 99,
		ls_stop: ['END'],
	});
	const { adapter: plain } = fitted([], { tracing: { model: 'echo-1' } });
	expect(plain.getLsParams({} as never)).not.toHaveProperty('ls_temperature');
});

describe('withStructuredOutput', () => {
	const adder = z.object({ a: z.number(), b: z.number() }).describe('Add two numbers');

	test('functionCalling (the default): the schema as a tool the model must call; includeRaw', async () => {
		const { adapter, seen } = fitted([call('add', { a: 1, b: 2 }), call('add', { a: 3, b: 4 })]);
		expect(await adapter.withStructuredOutput(adder, { name: 'add' }).invoke('1 + 2?')).toEqual({
			a: 1,
			b: 2,
		});
		expect(seen[0].tools).toEqual(['add']);
		expect(seen[0].config.tool_choice).toBe('add');
		const both = await adapter
			.withStructuredOutput(adder, { name: 'add', includeRaw: true })
			.invoke('3 + 4?');
		expect(both.parsed).toEqual({ a: 3, b: 4 });
		expect((both.raw as AIMessage).tool_calls?.[0].args).toEqual({ a: 3, b: 4 });
	});

	test('jsonSchema: response_format json_schema with the name and strict; the checked JSON from the model', async () => {
		const { adapter, seen } = fitted([
			text('{"a": 1, "b": 2}', { providerMetadata: { parsed: { a: 1, b: 2 } } }),
		]);
		const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
		const result = await adapter
			.withStructuredOutput(schema, { method: 'jsonSchema', name: 'sum', strict: true })
			.invoke('1 + 2?');
		expect(result).toEqual({ a: 1, b: 2 });
		expect(seen[0].config.response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'sum', schema, strict: true },
		});
		expect(seen[0].tools).toEqual([]);
	});

	test('jsonMode: response_format json_object, the reply read and parsed by the Zod schema', async () => {
		const { adapter, seen } = fitted([text('```json\n{"a": 5, "b": 6}\n```')]);
		expect(
			await adapter.withStructuredOutput(adder, { method: 'jsonMode' }).invoke('json please'),
		).toEqual({
			a: 5,
			b: 6,
		});
		expect(seen[0].config.response_format).toEqual({ type: 'json_object' });
	});

	test('a reply that does not fit says what is wrong', async () => {
		const { adapter } = fitted([
			call('add', { a: 'one', b: 2 }),
			text('no tool'),
			text('{"a": 1}'),
		]);
		const model = adapter.withStructuredOutput(adder, { name: 'add' });
		await expect(model.invoke('1 + 2?')).rejects.toThrow(
			'The model\'s structured output ("add", functionCalling) does not fit the schema: $.a: must be a number, got the text "one"',
		);
		await expect(model.invoke('1 + 2?')).rejects.toThrow('the model did not call "add"');
		await expect(
			adapter.withStructuredOutput(adder, { method: 'jsonMode' }).invoke('json'),
		).rejects.toThrow('does not fit the schema: $.b: is required but missing');
	});

	test('an unknown method is refused', () => {
		const { adapter } = fitted();
		expect(() => adapter.withStructuredOutput(adder, { method: 'xml' as never })).toThrow(
			'withStructuredOutput method: "xml" is not a method',
		);
	});
});
