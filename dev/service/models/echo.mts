/** Models that answer with the text of the last user message. */
import type { ChatRequest } from '../chat-request.mts';
import { lastUserText } from '../message-text.mts';
import { firstWords } from '../words.mts';
import { releaseDate, type ModelDefinition, type TextReply } from './model.mts';

export interface Answer {
	text: string;
	finishReason: TextReply['finishReason'];
}

/** `text` cut to the request's `max_tokens` words (finish_reason `length` when cut). */
export function limitedAnswer(text: string, request: ChatRequest): Answer {
	if (request.maxTokens === undefined) return { text, finishReason: 'stop' };
	const limited = firstWords(text, request.maxTokens);
	return { text: limited.text, finishReason: limited.cut ? 'length' : 'stop' };
}

/** The last user message's text, cut to `max_tokens` words. */
export function echoAnswer(request: ChatRequest): Answer {
	return limitedAnswer(lastUserText(request.messages), request);
}

/** A reply of `text` cut to `max_tokens` words, versioned as `model`. */
export function limitedReply(model: string, text: string, request: ChatRequest): TextReply {
	const answer = limitedAnswer(text, request);
	return { kind: 'text', model, content: answer.text, finishReason: answer.finishReason };
}

/** The reply of `echo-1`, versioned as `model`. */
export function echoReply(model: string, request: ChatRequest): TextReply {
	return limitedReply(model, lastUserText(request.messages), request);
}

export function echoModel(id: string): ModelDefinition {
	return {
		id,
		created: releaseDate,
		ownedBy: 'local-echo',
		respond: (request) => echoReply(`${id}-2026-11-01`, request),
	};
}

export const echoModels: ModelDefinition[] = [echoModel('echo-1'), echoModel('echo-pro')];
