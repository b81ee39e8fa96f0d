import type { ImageFields, ItemBinaries } from './images';
import type { ToolDefinition } from './tools';
import type { RetryPolicy } from '../transport/retry-policy';

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
	tools?: ToolDefinition[];
	tool_choice?: 'none' | 'required' | { type: 'function'; function: { name: string } };
	[field: string]: unknown;
}

/** What the node's parameters hold for one item, before any checking. */
export interface ChatInput extends ImageFields {
	model: unknown;
	promptType: unknown;
	systemMessage?: unknown;
	prompt?: unknown;
	messages?: unknown;
	messagesJson?: unknown;
	toolCallId?: unknown;
	toolResult?: unknown;
	toolsMode?: unknown;
	tools?: unknown;
	toolsJson?: unknown;
	toolChoice?: unknown;
	toolChoiceFunction?: unknown;
	options: Record<string, unknown>;
	/** The item's binary data that image fields name; none when absent. */
	binaries?: ItemBinaries;
}

/** A checked request, ready for the transport. */
export interface ChatRequest {
	body: ChatRequestBody;
	timeout: number;
	/** Read the reply as Server-Sent Events (`body.stream` is set). */
	stream: boolean;
	retry: RetryPolicy;
}
