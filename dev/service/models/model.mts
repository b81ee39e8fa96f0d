/** What a model is and what it answers. */
import type { ToolCall } from '../chat-messages.mts';
import type { ChatRequest } from '../chat-request.mts';
import type { InvalidJsonMode } from '../knobs.mts';

/** A normal answer; the service wraps it into a completion or a chunk stream. */
export interface TextReply {
	kind: 'text';
	/** The versioned name reported in the response's `model`. */
	model: string;
	content: string;
	reasoningContent?: string;
	finishReason: 'stop' | 'length';
	/** Images the model made, as data URLs (`message.images`, as OpenRouter answers image models in chat). */
	images?: string[];
}

/** Function calls instead of text: `content` null (or `content` when given), finish_reason `tool_calls`. */
export interface ToolCallReply {
	kind: 'tool_calls';
	model: string;
	toolCalls: ToolCall[];
	reasoningContent?: string;
	/** Text beside the calls, e.g. an inline `<think>` block. */
	content?: string;
}

/** The model declines: `refusal` instead of content (`content` null, or '' with `emptyContent`), finish_reason `stop`. */
export interface RefusalReply {
	kind: 'refusal';
	model: string;
	refusal: string;
	emptyContent: boolean;
}

/** A response sent exactly as given, whatever the request asked for (stream or not). */
export interface RawReply {
	kind: 'raw';
	status: number;
	headers: Record<string, string>;
	body: string;
}

export type CompletionReply = TextReply | ToolCallReply | RefusalReply;
export type ModelReply = CompletionReply | RawReply;

/** What the service, rather than the request, tells a model. */
export interface ModelContext {
	/** Set while the `invalid_json` knob's count says this JSON answer is to be invalid, and how. */
	invalidJson?: InvalidJsonMode;
}

export interface ModelDefinition {
	id: string;
	/** Unix seconds, as listed by GET /models. */
	created: number;
	ownedBy: string;
	respond(request: ChatRequest, context: ModelContext): ModelReply | Promise<ModelReply>;
}

/** 2026-11-01, the release the local models claim. */
export const releaseDate = Date.UTC(2026, 10, 1) / 1000;
