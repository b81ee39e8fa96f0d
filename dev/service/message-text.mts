/** The text of messages, for echo replies and word-count usage. */
import type { ChatMessage } from './chat-messages.mts';
import { countWords } from './words.mts';

/**
 * A message's text: its string content, or the text of an array content's parts joined with "\n": text parts
 * and the text of file parts (a PDF's shown text), each file headed by its name.
 */
export function messageText(message: ChatMessage): string {
	if (message.content === null) return '';
	if (typeof message.content === 'string') return message.content;
	return message.content
		.flatMap((part) => {
			if (part.file !== undefined) return [`${part.file.filename ?? 'File'}: ${part.file.text}`];
			return part.type === 'text' && part.text !== undefined ? [part.text] : [];
		})
		.join('\n');
}

/** The text of the last user message ('' when there is none). */
export function lastUserText(messages: readonly ChatMessage[]): string {
	const last = messages.filter((message) => message.role === 'user').at(-1);
	return last === undefined ? '' : messageText(last);
}

/** Words in all messages' text, at least 1. */
export function promptWords(messages: readonly ChatMessage[]): number {
	return Math.max(
		1,
		messages.reduce((sum, message) => sum + countWords(messageText(message)), 0),
	);
}
