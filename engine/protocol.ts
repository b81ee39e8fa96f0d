/**
 * The chat-completions protocol's shapes, as this package sends and reads them: the request body, its
 * messages and tools, and the completion. Types only.
 */

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

/** A prompt cache breakpoint (Anthropic's, which gateways pass on): on a text part, or at the top of the body. */
interface CacheControl {
	type: 'ephemeral';
	ttl?: '1h';
}

interface TextPart {
	type: 'text';
	text: string;
	cache_control?: CacheControl;
}

export interface ImagePart {
	type: 'image_url';
	image_url: { url: string; detail?: string };
}

export interface FilePart {
	type: 'file';
	file: { filename?: string; file_data: string };
}

export type ContentPart = TextPart | ImagePart | FilePart;

export interface ProtocolToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export interface ChatMessage {
	role: Role;
	content: string | ContentPart[] | null;
	tool_calls?: ProtocolToolCall[];
	tool_call_id?: string;
	[field: string]: unknown;
}

export interface ToolDefinition {
	type: 'function';
	function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface ChatRequestBody {
	model: string;
	messages: ChatMessage[];
	temperature?: number;
	top_p?: number;
	max_tokens?: number;
	tools?: ToolDefinition[];
	tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
	[field: string]: unknown;
}

/**
 * The fields in which services send an assistant message's reasoning text, most common first:
 * `reasoning_content` (DeepSeek, one-api, vLLM), `reasoning` (OpenRouter, Ollama, Groq).
 */
export const REASONING_TEXT_FIELDS = ['reasoning_content', 'reasoning'] as const;

/** A chat completion as the service sends it; unknown fields are kept. */
export interface Completion {
	id?: string;
	object?: string;
	created?: number;
	model?: string;
	choices: Array<{
		index?: number;
		message?: {
			role?: string;
			content?: unknown;
			tool_calls?: ProtocolToolCall[];
			reasoning_content?: unknown;
			reasoning?: unknown;
			[field: string]: unknown;
		};
		finish_reason?: string | null;
	}>;
	usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
	[field: string]: unknown;
}
