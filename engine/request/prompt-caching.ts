import { InputError } from '../failures/errors';
import { optionChoice } from '../options/read';
import { optionPath } from '../options/table';
import type { ChatMessage, ContentPart } from '../protocol';

/** A text part of a message, and the prompt cache breakpoint it (or the body's top) may carry. */
type TextPart = Extract<ContentPart, { type: 'text' }>;
type CacheControl = NonNullable<TextPart['cache_control']>;

/** The request as Options > Prompt Caching makes it: the messages to send and a top-level `cache_control`. */
export interface PromptCaching {
	messages: ChatMessage[];
	cacheControl?: CacheControl;
}

/**
 * Options > Prompt Caching applied to the messages: Off leaves them as they are, Automatic adds a top-level
 * `cache_control`, System Message puts it on the last text part of the last system message (a text
 * content becomes one text part). The messages given are not changed: the conversation a node outputs
 * carries no breakpoint, so a node after it with Prompt Caching off sends none.
 */
export function promptCaching(
	options: Record<string, unknown>,
	messages: ChatMessage[],
): PromptCaching {
	const mode = optionChoice(options, 'promptCaching');
	if (mode === 'off') return { messages };
	const cacheControl: CacheControl =
		optionChoice(options, 'promptCacheTtl') === '1h'
			? { type: 'ephemeral', ttl: '1h' }
			: { type: 'ephemeral' };
	if (mode === 'automatic') return { messages, cacheControl };
	const index = lastIndexOf(
		messages,
		(message) => message.role === 'system' && lastTextPart(message.content) !== undefined,
	);
	if (index === undefined) {
		throw new InputError(
			optionPath('promptCaching'),
			'is System Message, but the request has no system message with text to cache',
			'Add a system message (the start of the prompt that stays the same), or choose Automatic.',
		);
	}
	const marked = [...messages];
	marked[index] = {
		...messages[index],
		content: withBreakpoint(messages[index].content, cacheControl),
	};
	return { messages: marked };
}

/** The index of the last text part of a message's content (a text content is part 0); undefined when it has none. */
function lastTextPart(content: ChatMessage['content']): number | undefined {
	if (typeof content === 'string') return content === '' ? undefined : 0;
	if (!Array.isArray(content)) return undefined;
	return lastIndexOf(content, (part) => part.type === 'text' && part.text !== '');
}

function lastIndexOf<T>(list: readonly T[], test: (entry: T) => boolean): number | undefined {
	for (let index = list.length - 1; index >= 0; index--) if (test(list[index])) return index;
	return undefined;
}

function withBreakpoint(
	content: ChatMessage['content'],
	cacheControl: CacheControl,
): ContentPart[] {
	const parts: ContentPart[] =
		typeof content === 'string' ? [{ type: 'text', text: content }] : [...(content ?? [])];
	const index = lastTextPart(parts)!;
	parts[index] = { ...(parts[index] as TextPart), cache_control: cacheControl };
	return parts;
}
