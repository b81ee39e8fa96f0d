/** The request body in protocol form (SERVICE.md 2.1), as this node sends it. */

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface TextPart {
	type: 'text';
	text: string;
}

export interface ImagePart {
	type: 'image_url';
	image_url: { url: string; detail?: string };
}

export type ContentPart = TextPart | ImagePart;

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

export interface ChatRequestBody {
	model: string;
	messages: ChatMessage[];
	temperature?: number;
	top_p?: number;
	max_tokens?: number;
	[field: string]: unknown;
}

/** What the node's parameters hold for one item, before any checking. */
export interface ChatInput {
	model: unknown;
	promptType: unknown;
	systemMessage?: unknown;
	prompt?: unknown;
	messages?: unknown;
	messagesJson?: unknown;
	options: Record<string, unknown>;
}

/** A checked request, ready for the transport. */
export interface ChatRequest {
	body: ChatRequestBody;
	timeout: number;
}
