/** A model's reply as a chat completion, with its id, usage and message. */
import { randomUUID } from 'node:crypto';
import type { ChatRequest } from './chat-request.mts';
import type { Knobs } from './knobs.mts';
import { promptWords } from './message-text.mts';
import type { CompletionReply } from './models/model.mts';
import { countWords } from './words.mts';

export interface Usage {
	prompt_tokens: number;
	completion_tokens: number;
	total_tokens: number;
	prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
	completion_tokens_details?: { reasoning_tokens: number };
}

/** What every chunk of one completion shares. */
export interface CompletionMeta {
	id: string;
	created: number;
	model: string;
}

export function completionMeta(reply: CompletionReply, id?: string): CompletionMeta {
	return {
		id: id ?? `chatcmpl-${randomUUID().replaceAll('-', '')}`,
		created: Math.floor(Date.now() / 1000),
		model: reply.model,
	};
}

/** The words of what the model wrote: content and reasoning, the refusal, or each call's name and arguments (and any text beside them). */
function completionWords(reply: CompletionReply): number {
	switch (reply.kind) {
		case 'text':
			return countWords(reply.content) + countWords(reply.reasoningContent ?? '');
		case 'refusal':
			return countWords(reply.refusal);
		case 'tool_calls':
			return reply.toolCalls.reduce(
				(sum, call) => sum + countWords(`${call.function.name} ${call.function.arguments}`),
				countWords(reply.reasoningContent ?? '') + countWords(reply.content ?? ''),
			);
	}
}

/**
 * Words stand in for tokens; completion tokens count the reasoning too, as real reasoning models do. With
 * `cachedTokens` (knob `cached_tokens`) the details OpenAI sends: cached prompt tokens, reasoning tokens.
 */
export function usageFor(
	request: ChatRequest,
	reply: CompletionReply,
	cachedTokens?: number,
): Usage {
	const prompt = promptWords(request.messages);
	const completion = completionWords(reply);
	const reasoning = reply.kind === 'text' ? countWords(reply.reasoningContent ?? '') : 0;
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
		...(cachedTokens === undefined
			? {}
			: {
					prompt_tokens_details: { cached_tokens: Math.min(cachedTokens, prompt) },
					completion_tokens_details: { reasoning_tokens: reasoning },
				}),
	};
}

export function finishReason(reply: CompletionReply): string {
	if (reply.kind === 'text') return reply.finishReason;
	return reply.kind === 'refusal' ? 'stop' : 'tool_calls';
}

/** The assistant message; the reasoning goes in `reasoningField`. */
function message(reply: CompletionReply, reasoningField: Knobs['reasoningField']): object {
	if (reply.kind === 'refusal') {
		return { role: 'assistant', content: reply.emptyContent ? '' : null, refusal: reply.refusal };
	}
	const reasoning =
		reply.reasoningContent === undefined ? {} : { [reasoningField]: reply.reasoningContent };
	if (reply.kind === 'tool_calls') {
		return {
			role: 'assistant',
			content: reply.content ?? null,
			...reasoning,
			tool_calls: reply.toolCalls,
		};
	}
	return { role: 'assistant', content: reply.content, ...reasoning, ...imagesOf(reply) };
}

/** `images` as OpenRouter sends an image model's images: `[{type: "image_url", image_url: {url}}]`; none when absent. */
export function imagesOf(reply: CompletionReply): { images?: object[] } {
	if (reply.kind !== 'text' || reply.images === undefined) return {};
	return { images: reply.images.map((url) => ({ type: 'image_url', image_url: { url } })) };
}

export function completionBody(
	reply: CompletionReply,
	usage: Usage,
	meta: CompletionMeta,
	knobs: Pick<Knobs, 'reasoningField' | 'nullFinish'>,
): object {
	return {
		id: meta.id,
		object: 'chat.completion',
		created: meta.created,
		model: meta.model,
		choices: [
			{
				index: 0,
				message: message(reply, knobs.reasoningField),
				finish_reason: knobs.nullFinish ? null : finishReason(reply),
			},
		],
		usage,
	};
}
