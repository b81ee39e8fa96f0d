import type { FinishReason, GenerateResult, MessageContent, TokenUsage } from '@n8n/ai-node-sdk';

import { rememberCalls } from './call-memory';
import type { ModelReply, protocol } from '../../../engine';
import { errors, promptCacheOf, sentReasoning, splitReasoning, values } from '../../../engine';

/**
 * A completion into what n8n's AI nodes take from a model (the SDK's `GenerateResult`): the reply text
 * without its reasoning (a reasoning part of its own), the refusal as the text when the model refused,
 * tool calls with their ids and checked arguments, the finish reason, and the service's usage.
 */

/** Throws when a call names a tool that was not bound (only when tools were bound at all). */
export function checkCalledTools(result: GenerateResult, boundNames: readonly string[]): void {
	if (boundNames.length === 0) return;
	for (const part of result.message.content) {
		if (part.type === 'tool-call' && !boundNames.includes(part.toolName)) {
			throw new errors.UnknownToolError(part.toolName, boundNames);
		}
	}
}

const FINISH_REASONS: Record<string, FinishReason> = {
	stop: 'stop',
	length: 'length',
	tool_calls: 'tool-calls',
	function_call: 'tool-calls',
	content_filter: 'content-filter',
};

export function finishReason(reason: string | null | undefined): FinishReason {
	return FINISH_REASONS[reason ?? ''] ?? 'other';
}

const count = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The service's token counts, as n8n shows them; undefined when the service sent none. */
export function tokenUsage(usage: protocol.Completion['usage']): TokenUsage | undefined {
	if (!values.isPlainObject(usage)) return undefined;
	const prompt = count(usage.prompt_tokens);
	const completion = count(usage.completion_tokens);
	if (prompt === undefined && completion === undefined) return undefined;
	const result: TokenUsage = {
		promptTokens: prompt ?? 0,
		completionTokens: completion ?? 0,
		totalTokens: count(usage.total_tokens) ?? (prompt ?? 0) + (completion ?? 0),
	};
	const details = usage as Record<string, unknown>;
	const cache = promptCacheOf(usage);
	const reasoning = values.isPlainObject(details.completion_tokens_details)
		? count(details.completion_tokens_details.reasoning_tokens)
		: undefined;
	if (cache !== undefined) {
		// The SDK's type names reads only; writes ride along under LangChain's next name (langchain-usage.ts).
		const input: { cacheRead?: number; cacheCreation?: number } = {};
		if (cache.read_tokens !== undefined) input.cacheRead = cache.read_tokens;
		if (cache.write_tokens !== undefined) input.cacheCreation = cache.write_tokens;
		result.inputTokenDetails = input;
	}
	if (reasoning !== undefined) result.outputTokenDetails = { reasoning };
	return result;
}

/** The reply's tool calls, each with an id (made up when the service gave none) and arguments that are a JSON object. */
export function checkedToolCalls(completion: protocol.Completion): protocol.ProtocolToolCall[] {
	const calls = completion.choices[0].message?.tool_calls ?? [];
	return calls.map((call, index) => {
		const name = call.function.name;
		const sent = typeof call.function.arguments === 'string' ? call.function.arguments : '';
		// A call of a function without parameters may come with no arguments at all.
		const text = sent.trim() === '' ? '{}' : sent;
		const parsed = values.tryParseJson(text);
		if (!parsed.ok || !values.isPlainObject(parsed.value))
			throw new errors.ToolArgumentsError(name, sent);
		const id =
			typeof call.id === 'string' && call.id !== ''
				? call.id
				: `call_${completion.id ?? 'n8n'}_${index}`;
		return { ...call, id, type: 'function', function: { name, arguments: text } };
	});
}

/** The text to hand on: the content without reasoning, or the refusal when the model refused. */
export function replyText(completion: protocol.Completion): { text: string; reasoning?: string } {
	const message = completion.choices[0].message ?? {};
	const { content, reasoning } = splitReasoning(message);
	const refusal = typeof message.refusal === 'string' ? message.refusal : '';
	return { text: content === '' && refusal !== '' ? refusal : content, reasoning };
}

/** What the client knows of a reply beyond its completion (see ChatClient). */
export type ReplyNotes = Partial<
	Pick<ModelReply, 'model' | 'requestId' | 'cost' | 'attempts' | 'warnings'>
>;

/**
 * Throws when the reply was cut at the token limit; else the result for the AI node. The tool calls are
 * remembered with the reply's reasoning, so that the history the agent sends back can be restored
 * (see call-memory). The model that answered, the gateway's request id, its cost, the Fallback Models
 * that failed, the prompt cache's counts and the fields the gateway did not forward go in the provider metadata (n8n's log shows them, see langchain-usage.ts).
 */
export function generateResult(
	completion: protocol.Completion,
	notes: ReplyNotes = {},
): GenerateResult {
	const choice = completion.choices[0];
	const { text, reasoning } = replyText(completion);
	if (choice.finish_reason === 'length') {
		throw new errors.CutReplyError(text, count(completion.usage?.completion_tokens));
	}
	const calls = checkedToolCalls(completion);
	rememberCalls(calls, sentReasoning(choice.message ?? {}));
	// The text first, then the reasoning, then the calls: n8n's Guardrails (and, before n8n 2.32, its Text
	// Classifier, Information Extractor, Sentiment Analysis and Basic LLM Chain) read only `content[0]`, and
	// fail with "Invalid content type" when it is not the text.
	const content: MessageContent[] = [];
	if (text !== '' || calls.length === 0) content.push({ type: 'text', text });
	if (reasoning !== undefined) content.push({ type: 'reasoning', text: reasoning });
	for (const call of calls) {
		content.push({
			type: 'tool-call',
			toolCallId: call.id,
			toolName: call.function.name,
			input: call.function.arguments,
		});
	}
	const refusal = choice.message?.refusal;
	const { cost, requestId, attempts, warnings } = notes;
	const model = typeof completion.model === 'string' ? completion.model : notes.model;
	const promptCache = promptCacheOf(completion.usage);
	return {
		id: completion.id,
		finishReason: finishReason(choice.finish_reason),
		usage: tokenUsage(completion.usage),
		message: { role: 'assistant', id: completion.id, content },
		providerMetadata: {
			finish_reason: choice.finish_reason,
			...(model === undefined ? {} : { service_model: model }),
			...(typeof refusal === 'string' && refusal !== '' ? { refusal } : {}),
			...(requestId === undefined ? {} : { request_id: requestId }),
			...(cost === undefined ? {} : { cost }),
			...(attempts === undefined ? {} : { attempts }),
			...(warnings === undefined ? {} : { warnings }),
			...(promptCache === undefined ? {} : { prompt_cache: promptCache }),
		},
	};
}
