/** Models that answer with the text of the last user message. */
import type { ChatRequest } from '../chat-request.mts';
import { lastUserText } from '../message-text.mts';
import { firstWords } from '../words.mts';
import { releaseDate, type ModelDefinition, type TextReply } from './model.mts';

/** The last user message's text, cut to `max_tokens` words (finish_reason `length` when cut). */
export function echoAnswer(request: ChatRequest): {
	text: string;
	finishReason: TextReply['finishReason'];
} {
	const text = lastUserText(request.messages);
	if (request.maxTokens === undefined) return { text, finishReason: 'stop' };
	const limited = firstWords(text, request.maxTokens);
	return { text: limited.text, finishReason: limited.cut ? 'length' : 'stop' };
}

function echoModel(id: string): ModelDefinition {
	return {
		id,
		created: releaseDate,
		ownedBy: 'local-echo',
		respond(request) {
			const answer = echoAnswer(request);
			return {
				kind: 'text',
				model: `${id}-2026-11-01`,
				content: answer.text,
				finishReason: answer.finishReason,
			};
		},
	};
}

export const echoModels: ModelDefinition[] = [echoModel('echo-1'), echoModel('echo-pro')];
