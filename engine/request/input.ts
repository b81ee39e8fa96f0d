import type { ChatMessage, ChatRequestBody, ToolDefinition } from '../protocol';
import type { StructuredOutput } from './response-format';
import type { RetryPolicy } from '../retry/policy';

/** What a request is made of once a node has read its fields: finished messages and tools, and the Options. */
export interface RequestParts {
	/** As the node's Model field gave it: checked here. */
	model: unknown;
	messages: ChatMessage[];
	/** Checked protocol tools (`checkTools`); none when the request has no tools. */
	tools?: ToolDefinition[];
	/** Not sent when undefined (the service's default, auto). */
	toolChoice?: ChatRequestBody['tool_choice'];
	/** The node's Options collection, as the option table names them. */
	options: Record<string, unknown>;
	/** n8n streams the workflow's response (a Chat Trigger or Webhook in streaming mode): Stream not added follows it. */
	streaming?: boolean;
}

/** A checked request, ready for the transport. */
export interface ChatRequest {
	body: ChatRequestBody;
	timeout: number;
	/** Read the reply as Server-Sent Events (`body.stream` is set). */
	stream: boolean;
	retry: RetryPolicy;
	/** Set when the reply must be JSON: it is parsed, checked and repaired. */
	structured?: StructuredOutput;
	/** Options > Fallback Models: tried in order after a failure another model may not share (engine/fallback/). */
	fallbackModels: string[];
}
