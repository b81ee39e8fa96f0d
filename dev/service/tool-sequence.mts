/**
 * The order rule of tool calls in a conversation: every call of an assistant message is answered by one
 * tool message (matching `tool_call_id`) before the next user or assistant message, and a tool message
 * answers a call that is still open.
 */
import type { ChatMessage } from './chat-messages.mts';
import { invalidRequest } from './errors.mts';

/** Where an open call was made, for messages and `param`. */
interface OpenCall {
	at: string;
}

function unanswered(open: ReadonlyMap<string, OpenCall>, before: string): never {
	const ids = [...open.keys()];
	const [first] = open.values();
	throw invalidRequest(
		`${first.at}: the tool call${ids.length > 1 ? 's' : ''} ${ids.map((id) => `'${id}'`).join(', ')} ` +
			`must each be answered by a tool message (with that tool_call_id) ${before}`,
		first.at,
		'missing_tool_response',
	);
}

export function checkToolSequence(messages: readonly ChatMessage[]): void {
	const open = new Map<string, OpenCall>();
	const answered = new Set<string>();
	messages.forEach((message, index) => {
		const at = `messages[${index}]`;
		if ((message.role === 'user' || message.role === 'assistant') && open.size > 0) {
			unanswered(open, `before ${at}`);
		}
		(message.toolCalls ?? []).forEach((call, callIndex) => {
			const callAt = `${at}.tool_calls[${callIndex}]`;
			if (open.has(call.id) || answered.has(call.id)) {
				throw invalidRequest(
					`${callAt}: the tool call id '${call.id}' is used twice`,
					`${callAt}.id`,
					'invalid_value',
				);
			}
			open.set(call.id, { at: callAt });
		});
		if (message.toolCallId === undefined) return;
		if (open.delete(message.toolCallId)) {
			answered.add(message.toolCallId);
			return;
		}
		throw invalidRequest(
			answered.has(message.toolCallId)
				? `${at}: the tool call '${message.toolCallId}' has already been answered`
				: `${at}: 'tool_call_id' '${message.toolCallId}' matches no tool call of an earlier assistant message`,
			`${at}.tool_call_id`,
			'invalid_value',
		);
	});
	if (open.size > 0) unanswered(open, 'at the end of the messages');
}
