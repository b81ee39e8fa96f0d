import { REASONING_TEXT_FIELDS } from '../protocol';

/** Every reasoning field of an assistant message: the text fields and OpenRouter's structured `reasoning_details`, which it asks to be sent back with tool calls. */
const REASONING_FIELDS = [...REASONING_TEXT_FIELDS, 'reasoning_details'] as const;

const INLINE_THINK = /^\s*<think>([\s\S]*?)<\/think>\s*/;

/**
 * Separates reasoning from the reply text: `reasoning_content` (DeepSeek, one-api),
 * `reasoning` (OpenRouter, Ollama) or an inline `<think>…</think>` at the start of the content.
 */
export function splitReasoning(message: {
	content?: unknown;
	reasoning_content?: unknown;
	reasoning?: unknown;
}): { content: string; reasoning?: string } {
	let content = typeof message.content === 'string' ? message.content : '';
	const parts: string[] = [];
	for (const field of REASONING_TEXT_FIELDS.map((name) => message[name])) {
		if (typeof field === 'string' && field !== '') {
			parts.push(field);
			break;
		}
	}
	const inline = INLINE_THINK.exec(content);
	if (inline) {
		parts.push(inline[1].trim());
		content = content.slice(inline[0].length);
	}
	return parts.length > 0 ? { content, reasoning: parts.join('\n\n') } : { content };
}

/**
 * The reasoning of an assistant message as the service sent it, to be sent back with the message (DeepSeek's
 * thinking mode refuses a tool-call message without its `reasoning_content`): its reasoning fields under the
 * names it used, and its `content` when that begins with an inline `<think>` block. Only what it sent with a
 * value: a message without reasoning gets none.
 */
export function sentReasoning(message: Record<string, unknown>): Record<string, unknown> {
	const fields: Record<string, unknown> = {};
	if (typeof message.content === 'string' && INLINE_THINK.test(message.content)) {
		fields.content = message.content;
	}
	for (const name of REASONING_FIELDS) {
		const value = message[name];
		if (typeof value === 'string' || (name === 'reasoning_details' && Array.isArray(value))) {
			fields[name] = value;
		}
	}
	return fields;
}
