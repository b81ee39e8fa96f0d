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
	for (const field of [message.reasoning_content, message.reasoning]) {
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
