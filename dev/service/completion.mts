/** A model's reply as a chat completion (SERVICE.md 2.4), with its id, usage and message. */
import { randomUUID } from 'node:crypto';
import type { ChatRequest } from './chat-request.mts';
import type { ReasoningField } from './knobs.mts';
import { promptWords } from './message-text.mts';
import type { CompletionReply } from './models/model.mts';
import { countWords } from './words.mts';

export interface Usage {
	prompt_tokens: number;
	completion_tokens: number;
	total_tokens: number;
}

/** What every chunk of one completion shares. */
export interface CompletionMeta {
	id: string;
	created: number;
	model: string;
}

export function completionMeta(reply: CompletionReply): CompletionMeta {
	return {
		id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
		created: Math.floor(Date.now() / 1000),
		model: reply.model,
	};
}

/**
 * Words stand in for tokens; completion tokens count the reasoning too, as real reasoning models do,
 * and for tool calls the words of each name and arguments string.
 */
export function usageFor(request: ChatRequest, reply: CompletionReply): Usage {
	const prompt = promptWords(request.messages);
	const completion =
		reply.kind === 'text'
			? countWords(reply.content) + countWords(reply.reasoningContent ?? '')
			: reply.toolCalls.reduce(
					(sum, call) => sum + countWords(`${call.function.name} ${call.function.arguments}`),
					0,
				);
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
	};
}

export function finishReason(reply: CompletionReply): string {
	return reply.kind === 'text' ? reply.finishReason : 'tool_calls';
}

/** The assistant message; the reasoning goes in `reasoningField`. */
function message(reply: CompletionReply, reasoningField: ReasoningField): object {
	if (reply.kind === 'tool_calls') {
		return { role: 'assistant', content: null, tool_calls: reply.toolCalls };
	}
	const reasoning =
		reply.reasoningContent === undefined ? {} : { [reasoningField]: reply.reasoningContent };
	return { role: 'assistant', content: reply.content, ...reasoning };
}

export function completionBody(
	reply: CompletionReply,
	usage: Usage,
	meta: CompletionMeta,
	reasoningField: ReasoningField,
): object {
	return {
		id: meta.id,
		object: 'chat.completion',
		created: meta.created,
		model: meta.model,
		choices: [
			{
				index: 0,
				message: message(reply, reasoningField),
				finish_reason: finishReason(reply),
			},
		],
		usage,
	};
}
