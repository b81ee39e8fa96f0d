import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';

import { requireFinishReason } from './completion';
import { serviceErrorFrom } from './error-body';
import { IncompleteReplyError, StreamFormatError } from '../failures/errors';
import type { Completion, ProtocolToolCall } from '../protocol';
import { REASONING_TEXT_FIELDS } from '../protocol';
import { isPlainObject, tryParseJson } from '../values';

/**
 * Assembles a streamed reply (Server-Sent Events of `chat.completion.chunk`s) into the
 * same Completion the non-streaming reply gives. Only the assembled text is kept, as arrays of pieces
 * joined at the end, never the events.
 */

export interface StreamAssembler {
	/** Feeds the next piece of the body's text, cut anywhere. Throws as soon as the stream reports an error. */
	feed(text: string): void;
	/** The completion, once the body has ended; throws when the stream ended before the reply was complete. */
	finish(): Completion;
	/** The reply text (first choice) received so far. */
	progress(): { content: string };
}

export interface StreamOptions {
	/** The HTTP status of the reply, given to errors the stream carries (usually 200). */
	status: number;
	/** Called with each piece of the reply text (first choice) as it arrives. */
	onText?: (delta: string) => void;
}

interface ToolCallParts {
	id?: string;
	type?: string;
	name?: string;
	arguments: string[];
}

interface ChoiceParts {
	content: string[];
	reasoning: string[];
	/** The field the reasoning came in (`reasoning_content` or `reasoning`), kept for the assembled message. */
	reasoningField?: (typeof REASONING_TEXT_FIELDS)[number];
	refusal: string[];
	toolCalls: Map<number, ToolCallParts>;
	/** Images an image model sends in chat (`delta.images`, OpenRouter's shape), in order; created at the first. */
	images?: unknown[];
	finishReason: string | null;
}

type Json = Record<string, unknown>;

const DONE = '[DONE]';
const PREVIEW_LENGTH = 200;

const filled = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;

const preview = (text: string) =>
	text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;

function addToolCall(choice: ChoiceParts, delta: unknown, position: number): void {
	if (!isPlainObject(delta)) return;
	const index = typeof delta.index === 'number' ? delta.index : position;
	let call = choice.toolCalls.get(index);
	if (call === undefined) {
		call = { arguments: [] };
		choice.toolCalls.set(index, call);
	}
	const fn = isPlainObject(delta.function) ? delta.function : {};
	call.id ??= filled(delta.id);
	call.type ??= filled(delta.type);
	call.name ??= filled(fn.name);
	const piece = filled(fn.arguments);
	if (piece !== undefined) call.arguments.push(piece);
}

function toolCalls(choice: ChoiceParts): ProtocolToolCall[] {
	return [...choice.toolCalls.entries()]
		.sort(([a], [b]) => a - b)
		.map(
			([, call]) =>
				({
					...(call.id === undefined ? {} : { id: call.id }),
					type: call.type ?? 'function',
					function: { name: call.name ?? '', arguments: call.arguments.join('') },
				}) as ProtocolToolCall,
		);
}

function choiceOf(index: number, choice: ChoiceParts): Completion['choices'][number] {
	const calls = toolCalls(choice);
	const content = choice.content.join('');
	const message: NonNullable<Completion['choices'][number]['message']> = {
		role: 'assistant',
		content: content === '' && calls.length > 0 ? null : content,
	};
	if (choice.reasoningField !== undefined) {
		message[choice.reasoningField] = choice.reasoning.join('');
	}
	if (choice.refusal.length > 0) message.refusal = choice.refusal.join('');
	if (calls.length > 0) message.tool_calls = calls;
	if (choice.images !== undefined) message.images = choice.images;
	return { index, message, finish_reason: choice.finishReason };
}

export function createStreamAssembler({ status, onText }: StreamOptions): StreamAssembler {
	const choices = new Map<number, ChoiceParts>();
	const header: Json = {};
	let usage: Json | undefined;
	let done = false;
	let finished = false;
	let received = 0;
	/** Set while the end of the body is flushed: an event cut off there is dropped, as SSE says. */
	let flushing = false;

	function addChoice(entry: unknown, position: number): void {
		if (!isPlainObject(entry)) return;
		const index = typeof entry.index === 'number' ? entry.index : position;
		let choice = choices.get(index);
		if (choice === undefined) {
			choice = {
				content: [],
				reasoning: [],
				refusal: [],
				toolCalls: new Map(),
				finishReason: null,
			};
			choices.set(index, choice);
		}
		const delta = entry.delta;
		if (isPlainObject(delta)) {
			const content = filled(delta.content);
			if (content !== undefined) {
				choice.content.push(content);
				if (index === 0) onText?.(content);
			}
			for (const field of REASONING_TEXT_FIELDS) {
				const reasoning = filled(delta[field]);
				if (reasoning === undefined || (choice.reasoningField ?? field) !== field) continue;
				choice.reasoningField = field;
				choice.reasoning.push(reasoning);
			}
			const refusal = filled(delta.refusal);
			if (refusal !== undefined) {
				choice.refusal.push(refusal);
				// A chat shows the refusal as the reply: it is what the model said.
				if (index === 0) onText?.(refusal);
			}
			if (Array.isArray(delta.tool_calls)) {
				delta.tool_calls.forEach((call, callPosition) => addToolCall(choice, call, callPosition));
			}
			if (Array.isArray(delta.images)) (choice.images ??= []).push(...(delta.images as unknown[]));
		}
		const reason = filled(entry.finish_reason);
		if (reason !== undefined) {
			choice.finishReason = reason;
			finished = true;
		}
	}

	function addChunk(chunk: Json): void {
		for (const field of ['id', 'model', 'created', 'system_fingerprint']) {
			const value = chunk[field];
			if (header[field] === undefined && value !== undefined && value !== null && value !== '') {
				header[field] = value;
			}
		}
		if (isPlainObject(chunk.usage)) usage = chunk.usage;
		if (Array.isArray(chunk.choices)) chunk.choices.forEach(addChoice);
	}

	function onEvent({ event, data }: EventSourceMessage): void {
		if (done) return;
		if (event === 'error') throw serviceErrorFrom({ status, headers: {}, text: data });
		if (event !== undefined && event !== 'message') return;
		if (data === DONE || (data.length < 16 && data.trim() === DONE)) {
			done = true;
			return;
		}
		const parsed = tryParseJson(data);
		if (!parsed.ok || !isPlainObject(parsed.value)) {
			if (flushing) return;
			const what = parsed.ok ? 'a JSON object' : 'JSON';
			throw new StreamFormatError(
				`The stream sent a data line that is not ${what}: ${preview(data)}`,
			);
		}
		const chunk = parsed.value;
		if (chunk.error !== undefined && chunk.error !== null) {
			// A gateway passes on an upstream failure mid-stream, sometimes followed by [DONE].
			throw serviceErrorFrom({ status, headers: {}, text: data });
		}
		addChunk(chunk);
	}

	const parser = createParser({ onEvent });

	return {
		feed(text: string): void {
			received += text.length;
			parser.feed(text);
		},

		progress() {
			return { content: choices.get(0)?.content.join('') ?? '' };
		},

		finish(): Completion {
			// The body may end without the blank line that closes its last event.
			flushing = true;
			parser.feed('\n\n');
			const partial = choices.get(0)?.content.join('') ?? '';
			if (!done && !finished) {
				throw new IncompleteReplyError(
					`The stream ended before the reply was complete (no [DONE] and no finish_reason after ${partial.length} characters of the reply)`,
					partial,
				);
			}
			if (choices.size === 0) {
				throw new StreamFormatError(
					`The stream ended without any reply: no chunk had choices (${received} characters of events)`,
				);
			}
			const completion: Completion = {
				...header,
				object: 'chat.completion',
				choices: [...choices.entries()]
					.sort(([a], [b]) => a - b)
					.map(([index, choice]) => choiceOf(index, choice)),
			};
			if (usage !== undefined) completion.usage = usage;
			return requireFinishReason(completion, true);
		},
	};
}
