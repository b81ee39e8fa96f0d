import { BaseChatModel } from '@n8n/ai-node-sdk';
import type { ChatModelConfig, GenerateResult, Message, StreamChunk, Tool } from '@n8n/ai-node-sdk';
import type { ISupplyDataFunctions } from 'n8n-workflow';

import { callFormat, nameSchema } from './call-options';
import type { LangChainCallOptions } from './call-options';
import { Channel } from './channel';
import { modelError, WORDS } from './errors';
import { protocolMessages } from './messages';
import { checkOutputParser } from './output-parser';
import { checkCalledTools, generateResult } from './reply';
import { toolChoiceOf } from './tool-choice';
import { strictTools, toolDefinitions } from './tools';
import type { ChatRequest, Connection, protocol, Run } from '../../../engine';
import {
	buildChatRequest,
	ChatClient,
	checkTools,
	optionValue,
	thinkSplitter,
} from '../../../engine';

/** What the Chat Model node hands its model: the checked credential, the model ID and the Options. */
export interface ModelSettings {
	connection: Connection;
	model: string;
	/** The node's Options collection, as the option table names them. */
	options: Record<string, unknown>;
}

/** The call options an AI node passes: the SDK's, and LangChain's (what n8n's adapter hands on). */
type CallConfig = ChatModelConfig & LangChainCallOptions & { signal?: AbortSignal };

/** One call: its cancel signal, which also follows the AI node's own. */
interface Call {
	signal: AbortSignal;
	/** Ends the call: a request still running is cancelled. */
	end(): void;
}

/**
 * The model n8n's AI nodes (AI Agent, Basic LLM Chain, ...) call, through `supplyModel`. It sends every
 * request through the engine Chat Completion uses: `/chat/completions` with the credential applied by
 * n8n, the option table's fields, retries with Retry-After, the SSE reader and the error taxonomy.
 */
export class ChatCompletionsModel extends BaseChatModel {
	private readonly client: ChatClient;

	constructor(
		private readonly context: ISupplyDataFunctions,
		private readonly settings: ModelSettings,
		/** Shared by every call of this model in the execution: a Retry-After pauses all of them. */
		run: Run,
	) {
		super('chat-completions', settings.model);
		this.client = new ChatClient(context, settings.connection, run, WORDS);
	}

	/** The request for these messages and the bound tools; `stream` asks for Server-Sent Events. */
	request(
		messages: readonly Message[],
		config: CallConfig | undefined,
		stream: boolean,
	): ChatRequest {
		const tools = this.toolDefinitions();
		const format = callFormat(config?.response_format);
		const request = buildChatRequest({
			model: this.settings.model,
			messages: protocolMessages(messages),
			tools: tools.length === 0 ? undefined : config?.strict === true ? strictTools(tools) : tools,
			toolChoice: toolChoiceOf(
				config?.tool_choice,
				tools.map((tool) => tool.function.name),
			),
			options: { ...this.settings.options, ...format.options, stream },
		});
		checkOutputParser(request);
		nameSchema(request.body, format.schemaName);
		const stop = config?.stop ?? config?.stopSequences;
		if (Array.isArray(stop) && stop.length > 0) request.body.stop = stop;
		return request;
	}

	async generate(messages: Message[], config?: CallConfig): Promise<GenerateResult> {
		return await this.generateReply(messages, config, false);
	}

	private async generateReply(
		messages: Message[],
		config: CallConfig | undefined,
		streamed: boolean,
	): Promise<GenerateResult> {
		const call = this.begin(config);
		try {
			const request = this.request(messages, config, false);
			const { completion, json, ...notes } = await this.client.reply(request, {
				signal: call.signal,
			});
			const result = this.checked(generateResult(completion, notes));
			// The JSON a response_format asked for, as checked: LangChain's structured output takes it from here.
			if (json !== undefined)
				result.providerMetadata = { ...result.providerMetadata, parsed: json };
			return result;
		} catch (error) {
			throw this.failure(error, streamed);
		} finally {
			call.end();
		}
	}

	/**
	 * Streams the reply text as it arrives (reasoning apart), then each tool call as one complete delta
	 * with its id (n8n's adapter merges deltas by id), then the finish with the service's usage. A reply
	 * that must be JSON is checked (and repaired) first, so it comes as one piece.
	 */
	async *stream(messages: Message[], config?: CallConfig): AsyncIterable<StreamChunk> {
		let request: ChatRequest;
		try {
			request = this.request(messages, config, true);
		} catch (error) {
			throw this.failure(error, true);
		}
		if (request.structured !== undefined) {
			yield* resultChunks(await this.generateReply(messages, config, true));
			return;
		}
		const call = this.begin(config);
		const channel = new Channel<StreamChunk>();
		const splitter = thinkSplitter(
			(delta) => channel.push({ type: 'text-delta', delta }),
			(delta) => channel.push({ type: 'reasoning-delta', delta }),
		);
		const reply = this.client
			.reply(request, { signal: call.signal, onText: (delta) => splitter.push(delta) })
			.finally(() => {
				splitter.end();
				channel.close();
			});
		// Awaited below; a rejection while the chunks are still being read is not unhandled.
		reply.catch(() => undefined);
		try {
			yield* channel;
			const { completion, ...notes } = await reply;
			yield* callsAndFinish(this.checked(generateResult(completion, notes)));
		} catch (error) {
			throw this.failure(error, true);
		} finally {
			call.end();
		}
	}

	/**
	 * The model with these tools bound as well; binding again never duplicates a tool: one of the same
	 * name replaces the one bound before. (n8n's AI Agent binds its tools on a model it has bound them on
	 * already when it forces a tool call, and the SDK's own `withTools` would send each tool twice.)
	 */
	override withTools(tools: Tool[]): ChatCompletionsModel {
		const names = new Set(tools.map((tool) => tool.name));
		const bound = super.withTools([]) as ChatCompletionsModel;
		bound.tools = [...this.tools.filter((tool) => !names.has(tool.name)), ...tools];
		return bound;
	}

	/** The bound tools as checked protocol tools, converted once per set of bound tools (an agent calls many times). */
	private toolDefinitions(): protocol.ToolDefinition[] {
		if (this.converted?.tools !== this.tools) {
			const definitions = toolDefinitions(this.tools);
			this.converted = {
				tools: this.tools,
				definitions: definitions.length > 0 ? checkTools(definitions, 'Tools') : definitions,
			};
		}
		return this.converted.definitions;
	}

	private converted?: { tools: readonly Tool[]; definitions: protocol.ToolDefinition[] };

	/** The result, once its tool calls name only bound tools. */
	private checked(result: GenerateResult): GenerateResult {
		checkCalledTools(
			result,
			this.tools.map((tool) => tool.name),
		);
		return result;
	}

	/** A call's cancel signal: the call's end and the AI node's own signals (the run adds the execution's cancel). */
	private begin(config: CallConfig | undefined): Call {
		const own = new AbortController();
		const signals = [own.signal, config?.signal, config?.abortSignal].filter(
			(signal): signal is AbortSignal => signal !== undefined,
		);
		return {
			signal: signals.length === 1 ? own.signal : AbortSignal.any(signals),
			end: () => own.abort(CALL_ENDED),
		};
	}

	/**
	 * A failure as the error the AI node shows (also for what the adapter fit finds wrong); `streamed`: the
	 * call was streaming its reply to a chat client, which n8n shows the error's description alone.
	 */
	failure(error: unknown, streamed = false) {
		const { connection, model, options } = this.settings;
		return modelError(this.context.getNode(), error, {
			...connection,
			model,
			maxTokens: optionValue(options, 'maxTokens'),
			streamed,
		});
	}
}

/**
 * Why a call's own signal aborts when the call ends (a request still running is cancelled): one reason for
 * every call, as an abort without a reason builds a DOMException with its stack each time.
 */
const CALL_ENDED = new Error('The model call ended');

/** A result's tool calls as stream chunks, one complete delta per call with its id, then the finish (with the reply's metadata). */
function* callsAndFinish(result: GenerateResult): Iterable<StreamChunk> {
	for (const part of result.message.content) {
		if (part.type !== 'tool-call') continue;
		yield {
			type: 'tool-call-delta',
			id: part.toolCallId,
			name: part.toolName,
			argumentsDelta: part.input,
		};
	}
	yield {
		type: 'finish',
		finishReason: result.finishReason ?? 'other',
		usage: result.usage,
		providerMetadata: result.providerMetadata,
	};
}

/** A whole result as stream chunks: its text and reasoning, its tool calls, the finish. */
function* resultChunks(result: GenerateResult): Iterable<StreamChunk> {
	for (const part of result.message.content) {
		if (part.type === 'text' && part.text !== '') yield { type: 'text-delta', delta: part.text };
		if (part.type === 'reasoning') yield { type: 'reasoning-delta', delta: part.text };
	}
	yield* callsAndFinish(result);
}
