/**
 * The cases of LangChain's standard chat-model tests (langchain-ai/langchainjs, internal/standard-tests:
 * `ChatModelIntegrationTests` and the LangSmith parameters of `ChatModelUnitTests`), written again here
 * against a model factory, so that one case runs on the Chat Completions Chat Model (through n8n's engine)
 * and on @langchain/openai's ChatOpenAI, both against the local service. What each case checks follows the
 * suite; where the suite needs the internet (images by a public URL) a local asset stands in, and where it
 * needs an answer the local service cannot give, the case says so.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import {
	AIMessage,
	AIMessageChunk,
	HumanMessage,
	SystemMessage,
	ToolMessage,
	getBufferString,
} from '@langchain/core/messages';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnableLambda } from '@langchain/core/runnables';
import { StructuredTool, tool } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { concat } from '@langchain/core/utils/stream';
import { z } from 'zod';

/** What a case may change of the model, as the suite's constructor arguments do. */
export interface ModelArgs {
	/** Stop sequences set on the model itself. */
	stop?: string[];
	/** LangChain's in-memory cache on the model. */
	cache?: boolean;
	/** Sampling settings the suite's unit tests set (temperature 0, maximum tokens 100). */
	standardParams?: boolean;
}

export type MakeModel = (args?: ModelArgs) => BaseChatModel;

export interface CaseContext {
	make: MakeModel;
	/** A PNG the local service serves (the suite's public image URL stands in for it). */
	imageUrl: string;
	imageBase64: string;
}

export type StandardCase = (context: CaseContext) => Promise<void>;

/** The local service's model a case asks: `vision-1` reads images, `tools-1` calls tools and echoes otherwise. */
export function caseModel(name: string): string {
	return /ContentBlocks$/.test(name) && name !== 'testStandardTextContentBlocks'
		? 'vision-1'
		: 'tools-1';
}

const adderSchema = z
	.object({
		a: z.number().int().describe('The first integer to add.'),
		b: z.number().int().describe('The second integer to add.'),
	})
	.describe('Add two integers');

class AdderTool extends StructuredTool {
	name = 'AdderTool';

	description = 'Add two integers';

	schema = adderSchema;

	async _call(input: { a: number; b: number }) {
		return JSON.stringify({ result: input.a + input.b });
	}
}

const mathPrompt = ChatPromptTemplate.fromMessages([
	['system', 'You are bad at math and must ALWAYS call the {toolName} function.'],
	['human', 'What is the sum of 1836281973 and 19973286?'],
]);

const weatherSchema = z.object({
	location: z.string().describe('The location to get the weather for.'),
});

const weatherTool = () =>
	tool(() => 'The weather in San Francisco is 70 degrees and sunny.', {
		name: 'get_current_weather',
		schema: weatherSchema,
		description: 'Get the current weather for a location.',
	});

const FUNCTION_ID = 'abc123';

function expectText(result: BaseMessage): void {
	expect(AIMessage.isInstance(result) || AIMessageChunk.isInstance(result)).toBe(true);
	expect(typeof result.text).toBe('string');
	expect(result.text).not.toBe('');
}

async function streamWhole(
	stream: AsyncIterable<AIMessageChunk>,
): Promise<AIMessageChunk | undefined> {
	let whole: AIMessageChunk | undefined;
	for await (const chunk of stream) whole = whole === undefined ? chunk : concat(whole, chunk);
	return whole;
}

/** Records the options a traced model call starts with (the suite's TestCallbackHandler). */
class StartOptions extends BaseCallbackHandler {
	name = 'start-options';

	options: Record<string, unknown> = {};

	async handleChatModelStart(
		_llm: unknown,
		_messages: unknown,
		_runId: string,
		_parentRunId?: string,
		extraParams?: Record<string, unknown>,
	) {
		this.options = (extraParams?.options ?? {}) as Record<string, unknown>;
	}
}

/** The structured output LangChain traces: method functionCalling, the adder's JSON Schema. */
function expectTracedAdder(handler: StartOptions): void {
	const format = handler.options.ls_structured_output_format as {
		kwargs: { method: string };
		schema: unknown;
	};
	expect(format?.kwargs?.method).toBe('functionCalling');
	expect(format?.schema).toEqual(toJsonSchema(adderSchema));
}

function expectToolHistoryReply(result: BaseMessage): void {
	expect(AIMessage.isInstance(result)).toBe(true);
	expect(result.content).toBeDefined();
}

function adderHistory(listContent: boolean): BaseMessage[] {
	const args = { a: 1, b: 2 };
	return [
		new HumanMessage('What is 1 + 2'),
		new AIMessage({
			content: listContent
				? [
						{ type: 'text', text: 'some text' },
						{ type: 'tool_use', id: FUNCTION_ID, name: 'AdderTool', input: args },
					]
				: '',
			tool_calls: [{ name: 'AdderTool', args, id: FUNCTION_ID, type: 'tool_call' }],
		}),
		new ToolMessage(JSON.stringify({ result: 3 }), FUNCTION_ID, 'AdderTool'),
	];
}

async function useToolThenAnswer(make: MakeModel, streaming: boolean): Promise<void> {
	const weather = weatherTool();
	const model = make().bindTools!([weather]);
	const messages: BaseMessage[] = [
		new HumanMessage(
			"What's the weather like in San Francisco right now? Use the 'get_current_weather' tool to find the answer.",
		),
	];
	const first = streaming
		? ((await streamWhole(await model.stream(messages))) as AIMessage)
		: ((await model.invoke(messages)) as AIMessage);
	expect(first.tool_calls?.[0]?.name).toBe('get_current_weather');
	const call = first.tool_calls![0];
	messages.push(
		first,
		new ToolMessage({
			tool_call_id: call.id ?? '',
			name: call.name,
			content: String(await weather.invoke(call.args as { location: string })),
		}),
	);
	const final = streaming
		? await streamWhole(await model.stream(messages))
		: await model.invoke(messages);
	expect(final?.content).not.toBe('');
}

/** The cases by the suite's names. */
export const STANDARD_CASES: Record<string, StandardCase> = {
	async testInvoke({ make }) {
		expectText(await make().invoke('Hello'));
	},

	async testStream({ make }) {
		let chunks = 0;
		let characters = 0;
		for await (const chunk of await make().stream('Hello')) {
			chunks++;
			expect(AIMessageChunk.isInstance(chunk)).toBe(true);
			characters += typeof chunk.content === 'string' ? chunk.content.length : chunk.content.length;
		}
		expect(chunks).toBeGreaterThan(0);
		expect(characters).toBeGreaterThan(0);
	},

	async testBatch({ make }) {
		const results = await make().batch(['Hello', 'Hey']);
		expect(results).toHaveLength(2);
		for (const result of results) expectText(result);
	},

	async testStreamEvents({ make }) {
		const events = [];
		for await (const event of make().streamEvents('Hello', { version: 'v2' })) events.push(event);
		expect(events.length).toBeGreaterThanOrEqual(3);
		expect(events[0].event).toBe('on_chat_model_start');
		expect(events.at(-1)?.event).toBe('on_chat_model_end');
		expect(events[Math.floor(events.length / 2)].event).toBe('on_chat_model_stream');
		const textOf = (output: unknown): string =>
			typeof output === 'string'
				? output
				: Array.isArray(output) && output.length > 0 && 'text' in output[0]
					? String(output[0].text)
					: '';
		const end = events.at(-1)?.data.output as AIMessageChunk;
		const streamed = events
			.filter((event) => event.event === 'on_chat_model_stream')
			.map((event) => textOf((event.data.chunk as AIMessageChunk).content))
			.join('');
		expect(textOf(end.content)).toBe(streamed);
	},

	async testConversation({ make }) {
		expectText(
			await make().invoke([
				new HumanMessage('hello'),
				new AIMessage('hello'),
				new HumanMessage('how are you'),
			]),
		);
	},

	async testDoubleMessageConversation({ make }) {
		expectText(
			await make().invoke([
				new SystemMessage('hello'),
				new SystemMessage('hello'),
				new HumanMessage('hello'),
				new HumanMessage('hello'),
				new AIMessage('hello'),
				new AIMessage('hello'),
				new HumanMessage('how are you'),
			]),
		);
	},

	async testUsageMetadata({ make }) {
		const result = (await make().invoke('Hello')) as AIMessage;
		expect(typeof result.usage_metadata?.input_tokens).toBe('number');
		expect(typeof result.usage_metadata?.output_tokens).toBe('number');
		expect(typeof result.usage_metadata?.total_tokens).toBe('number');
		expect(typeof result.response_metadata.model).toBe('string');
		expect(result.response_metadata.model).not.toBe('');
	},

	async testUsageMetadataStreaming({ make }) {
		const whole = await streamWhole(await make().stream('Hello'));
		expect(typeof whole?.usage_metadata?.input_tokens).toBe('number');
		expect(typeof whole?.usage_metadata?.output_tokens).toBe('number');
		expect(typeof whole?.usage_metadata?.total_tokens).toBe('number');
	},

	async testStopSequence({ make }) {
		const result = await make().invoke('hi', { stop: ['you'] });
		expect(AIMessage.isInstance(result)).toBe(true);
		const custom = await make({ stop: ['you'] }).invoke('hi');
		expect(AIMessage.isInstance(custom)).toBe(true);
	},

	async testToolCalling({ make }) {
		const result = (await make().bindTools!([new AdderTool()]).invoke(
			'What is the value of adderTool(1, 2)? Use the tool.',
		)) as AIMessage;
		expect(result.tool_calls).toHaveLength(1);
		const [call] = result.tool_calls!;
		expect(call.name).toBe('AdderTool');
		expect(call.args).toEqual({ a: 1, b: 2 });
		expect(call.id).toBe(FUNCTION_ID);
		expect(call.type).toBe('tool_call');
	},

	async testBindToolsWithRunnableToolLike({ make }) {
		const runnable = RunnableLambda.from(() => undefined).asTool({
			name: 'math_addition',
			description: 'Add two integers',
			schema: adderSchema,
		});
		const result = (await mathPrompt.pipe(make().bindTools!([runnable])).invoke({
			toolName: 'math_addition',
		})) as AIMessage;
		expect(result.tool_calls).toHaveLength(1);
		const [call] = result.tool_calls!;
		expect(call.name).toBe('math_addition');
		expect(call.args).toEqual({ a: expect.any(Number), b: expect.any(Number) });
		expect(call.id).toBeDefined();
		expect(call.type).toBe('tool_call');
	},

	async testBindToolsWithOpenAIFormattedTools({ make }) {
		const model = make().bindTools!([
			{
				type: 'function',
				function: {
					name: 'math_addition',
					description: 'Add two integers',
					parameters: toJsonSchema(adderSchema) as Record<string, unknown>,
				},
			},
		]);
		const result = (await mathPrompt
			.pipe(model)
			.invoke({ toolName: 'math_addition' })) as AIMessage;
		expect(result.tool_calls?.[0]?.name).toBe('math_addition');
	},

	async testToolMessageHistoriesStringContent({ make }) {
		expectToolHistoryReply(await make().bindTools!([new AdderTool()]).invoke(adderHistory(false)));
	},

	async testToolMessageHistoriesListContent({ make }) {
		expectToolHistoryReply(await make().bindTools!([new AdderTool()]).invoke(adderHistory(true)));
	},

	async testStructuredFewShotExamples({ make }) {
		const history = [
			...adderHistory(false),
			new AIMessage(JSON.stringify({ result: 3 })),
			new HumanMessage('What is 3 + 4'),
		];
		expect(AIMessage.isInstance(await make().bindTools!([new AdderTool()]).invoke(history))).toBe(
			true,
		);
	},

	async testWithStructuredOutput({ make }) {
		const handler = new StartOptions();
		const model = make().withStructuredOutput(adderSchema, { name: 'math_addition' });
		const result = (await mathPrompt
			.pipe(model)
			.invoke({ toolName: 'math_addition' }, { callbacks: [handler] })) as { a: number; b: number };
		expect(typeof result.a).toBe('number');
		expect(typeof result.b).toBe('number');
		expectTracedAdder(handler);
	},

	async testWithStructuredOutputIncludeRaw({ make }) {
		const handler = new StartOptions();
		const model = make().withStructuredOutput(adderSchema, {
			name: 'math_addition',
			includeRaw: true,
		});
		const result = (await mathPrompt
			.pipe(model)
			.invoke({ toolName: 'math_addition' }, { callbacks: [handler] })) as {
			raw: BaseMessage;
			parsed: { a: number; b: number };
		};
		expect(AIMessage.isInstance(result.raw)).toBe(true);
		expect(typeof result.parsed.a).toBe('number');
		expect(typeof result.parsed.b).toBe('number');
		expectTracedAdder(handler);
	},

	async testCacheComplexMessageTypes({ make }) {
		const model = make({ cache: true });
		expect(model.cache).toBeDefined();
		const message = new HumanMessage({ content: [{ type: 'text', text: 'Hello there!' }] });
		const prompt = getBufferString([message]);
		const key = model._getSerializedCacheKeyParametersForCall({} as never);
		await model.invoke([message]);
		const cached = await model.cache!.lookup(prompt, key);
		expect(cached).toHaveLength(1);
		const cachedMessage = (cached![0] as unknown as { message: AIMessage }).message;
		expect(await model.invoke([message])).toEqual(cachedMessage);
		expect(await model.cache!.lookup(prompt, key)).toEqual(cached);
	},

	async testStreamTokensWithToolCalls({ make }) {
		const stream = await mathPrompt
			.pipe(make().bindTools!([new AdderTool()]))
			.stream({ toolName: 'math_addition' });
		const whole = await streamWhole(stream as AsyncIterable<AIMessageChunk>);
		expect(whole?.tool_calls?.[0]).toBeDefined();
		expect(whole?.usage_metadata?.input_tokens).toBeGreaterThan(0);
		expect(whole?.usage_metadata?.output_tokens).toBeGreaterThan(0);
	},

	async testModelCanUseToolUseAIMessage({ make }) {
		await useToolThenAnswer(make, false);
	},

	async testModelCanUseToolUseAIMessageWithStreaming({ make }) {
		await useToolThenAnswer(make, true);
	},

	async testInvokeMoreComplexTools({ make }) {
		const schema = z.object({
			decision: z.enum(['UseAPI', 'UseFallback']),
			explanation: z.string(),
			apiDetails: z.object({
				serviceName: z.string(),
				endpointName: z.string(),
				parameters: z.record(z.unknown()),
				extractionPath: z.string(),
			}),
		});
		const prompt = ChatPromptTemplate.fromMessages([
			['system', "You're a helpful assistant. Always use the {toolName} tool."],
			[
				'human',
				'I want to use the UseAPI because it is faster. For the API details use the following:\nService name: {serviceName}\nEndpoint name: {endpointName}\nParameters: {parameters}\nExtraction path: {extractionPath}',
			],
		]);
		const result = (await prompt
			.pipe(make().withStructuredOutput(schema, { name: 'service_tool' }))
			.invoke({
				toolName: 'service_tool',
				serviceName: 'MyService',
				endpointName: 'MyEndpoint',
				parameters: JSON.stringify({ param1: 'value1', param2: 'value2' }),
				extractionPath: 'Users/johndoe/data',
			})) as Record<string, unknown>;
		expect(result.decision).toBeDefined();
		expect(result.explanation).toBeDefined();
		expect(typeof result.apiDetails).toBe('object');
	},

	async testParallelToolCalling({ make }) {
		const noop = (name: string, what: string) =>
			tool(() => 'no-op', {
				name,
				description: `Get the current ${what} in a given location`,
				schema: z.object({ location: z.string().describe('The city name, e.g. San Francisco') }),
			});
		const model = make().bindTools!([
			noop('get_current_weather', 'weather'),
			noop('get_current_time', 'time'),
		]);
		const prompt =
			"What's the weather and current time in San Francisco?\nEnsure you ALWAYS call the 'get_current_weather' tool for weather and 'get_current_time' tool for time.";
		const names = (message: AIMessage | undefined) =>
			(message?.tool_calls ?? []).map((call) => call.name);
		const invoked = (await model.invoke(prompt)) as AIMessage;
		expect(names(invoked)).toEqual(
			expect.arrayContaining(['get_current_weather', 'get_current_time']),
		);
		const streamed = await streamWhole(await model.stream(prompt));
		expect(names(streamed)).toEqual(
			expect.arrayContaining(['get_current_weather', 'get_current_time']),
		);
		const weather = invoked.tool_calls!.find((call) => call.name === 'get_current_weather')!;
		const time = invoked.tool_calls!.find((call) => call.name === 'get_current_time')!;
		const answer = (await model.invoke([
			new HumanMessage(prompt),
			invoked,
			new ToolMessage({
				name: weather.name,
				tool_call_id: weather.id!,
				content: 'It is 24 degrees with hail.',
			}),
			new ToolMessage({ name: time.name, tool_call_id: time.id!, content: 'It is 12:02 PM.' }),
		])) as AIMessage;
		expect(answer.tool_calls ?? []).toHaveLength(0);
		expect(answer.text).not.toBe('');
	},

	async testModelCanAcceptStructuredToolParamsSchema({ make }) {
		const params = {
			name: 'get_current_weather',
			description: 'Get the current weather in a given location',
			schema: z.object({ location: z.string().describe('The city name, e.g. San Francisco') }),
		};
		const result = (await make().bindTools!([params]).invoke(
			"What's the weather like in San Francisco today?",
		)) as AIMessage;
		expect(result.tool_calls?.[0]?.name).toBe('get_current_weather');
		expect(result.tool_calls?.[0]?.args).toHaveProperty('location');
	},

	async testStreamTools({ make }) {
		const params = {
			name: 'get_current_weather',
			description: 'Get the current weather in a given location',
			schema: z.object({ location: z.string().describe('The city name, e.g. San Francisco') }),
		};
		const whole = await streamWhole(
			await make().bindTools!([params]).stream("What's the weather like in San Francisco today?"),
		);
		expect(whole?.tool_calls?.[0]?.name).toBe('get_current_weather');
		expect(whole?.tool_calls?.[0]?.args).toHaveProperty('location');
	},

	async testStandardTextContentBlocks({ make }) {
		const message = new HumanMessage({
			content: [
				{ type: 'text', source_type: 'text', text: 'Hello from a text content block!' } as never,
			],
		});
		expect((await make().invoke([message])).text).not.toBe('');
	},

	async testStandardImageContentBlocks({ make, imageUrl, imageBase64 }) {
		const model = make();
		for (const block of [
			{ type: 'image', source_type: 'url', url: imageUrl },
			{ type: 'image', source_type: 'base64', data: imageBase64, mime_type: 'image/png' },
			{ type: 'image', source_type: 'url', url: `data:image/png;base64,${imageBase64}` },
		]) {
			const result = await model.invoke([new HumanMessage({ content: [block as never] })]);
			expect(result.text).not.toBe('');
		}
	},

	async testStandardAudioContentBlocks({ make }) {
		const audio = 'UklGRigAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAAABkYXRhAgAAAAEA';
		const message = new HumanMessage({
			content: [
				{ type: 'audio', source_type: 'base64', data: audio, mime_type: 'audio/wav' } as never,
			],
		});
		expect((await make().invoke([message])).text).not.toBe('');
	},

	async testStandardFileContentBlocks({ make }) {
		const message = new HumanMessage({
			content: [
				{
					type: 'file',
					source_type: 'url',
					url: 'data:text/plain;base64,SGVsbG8sIFdvcmxkIQ==',
					mime_type: 'text/plain',
					metadata: { filename: 'hello.txt' },
				} as never,
			],
		});
		expect((await make().invoke([message])).text).not.toBe('');
	},

	/** ChatModelUnitTests.testStandardParams: exactly LangSmith's six parameters. */
	async testStandardParams({ make }) {
		const params = make({ standardParams: true }).getLsParams({} as never);
		expect(Object.keys(params).sort()).toEqual(
			[
				'ls_provider',
				'ls_model_name',
				'ls_model_type',
				'ls_temperature',
				'ls_max_tokens',
				'ls_stop',
			].sort(),
		);
	},
};
