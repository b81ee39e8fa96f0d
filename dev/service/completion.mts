/** A TextReply as a chat completion (SERVICE.md 2.4) or as the chunks of a stream (2.5, 4.2). */
import { randomUUID } from 'node:crypto';
import type { ChatRequest } from './chat-request.mts';
import { promptWords } from './message-text.mts';
import type { TextReply } from './models/model.mts';
import { countWords, wordPieces } from './words.mts';

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

export function completionMeta(reply: TextReply): CompletionMeta {
	return {
		id: `chatcmpl-${randomUUID().replaceAll('-', '')}`,
		created: Math.floor(Date.now() / 1000),
		model: reply.model,
	};
}

/** Words stand in for tokens; completion tokens count the reasoning too, as real reasoning models do. */
export function usageFor(request: ChatRequest, reply: TextReply): Usage {
	const prompt = promptWords(request.messages);
	const completion = countWords(reply.content) + countWords(reply.reasoningContent ?? '');
	return {
		prompt_tokens: prompt,
		completion_tokens: completion,
		total_tokens: prompt + completion,
	};
}

export function completionBody(reply: TextReply, usage: Usage, meta: CompletionMeta): object {
	const reasoning =
		reply.reasoningContent === undefined ? {} : { reasoning_content: reply.reasoningContent };
	return {
		id: meta.id,
		object: 'chat.completion',
		created: meta.created,
		model: meta.model,
		choices: [
			{
				index: 0,
				message: { role: 'assistant', content: reply.content, ...reasoning },
				finish_reason: reply.finishReason,
			},
		],
		usage,
	};
}

/**
 * The chunks of a streamed reply, in order: the role, one chunk per word of the reasoning and then of
 * the content, the finish_reason, and (when `usage` is given, i.e. include_usage) a usage chunk.
 */
export function completionChunks(
	reply: TextReply,
	meta: CompletionMeta,
	usage: Usage | undefined,
): object[] {
	const head = {
		id: meta.id,
		object: 'chat.completion.chunk',
		created: meta.created,
		model: meta.model,
	};
	const chunk = (delta: object, finishReason: string | null = null): object => ({
		...head,
		choices: [{ index: 0, delta, finish_reason: finishReason }],
	});
	const chunks = [
		chunk({ role: 'assistant' }),
		...wordPieces(reply.reasoningContent ?? '').map((piece) => chunk({ reasoning_content: piece })),
		...wordPieces(reply.content).map((piece) => chunk({ content: piece })),
		chunk({}, reply.finishReason),
	];
	if (usage !== undefined) chunks.push({ ...head, choices: [], usage });
	return chunks;
}
