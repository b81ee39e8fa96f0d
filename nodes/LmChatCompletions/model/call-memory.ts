import type { protocol } from '../../../engine';

/**
 * The tool calls this package handed to n8n's AI nodes, remembered by call id, so that the history an
 * agent sends back can be restored to what the model sent: the AI Agent rebuilds every call from its own
 * records (the arguments re-serialised with an extra `id` key, parallel calls split into one assistant
 * message each). Each AI Agent round runs the Chat Model anew, so the memory is the module's, bounded,
 * and only used where it agrees with what the agent sends (same name, same arguments). The reply's
 * reasoning (its fields, or its content with an inline `<think>` block) is remembered with its calls: the
 * agent drops it, and thinking models (DeepSeek) refuse a tool-call message sent back without it.
 */

export interface RememberedCall {
	name: string;
	/** The arguments exactly as the model sent them. */
	arguments: string;
	/** Every call id of the same reply, in the model's order (this one included). */
	reply: readonly string[];
	/** The reply's reasoning as the service sent it (`reasoning_content`, ..., or `content` with a `<think>` block); empty when none. */
	reasoning: Readonly<Record<string, unknown>>;
}

/** Enough for many concurrent agents; the oldest calls are forgotten first. */
const LIMIT = 2000;
const calls = new Map<string, RememberedCall>();

/** Remembers the calls of one reply (ids the service gave; calls without an id are not remembered). */
export function rememberCalls(
	toolCalls: readonly protocol.ProtocolToolCall[],
	reasoning: Readonly<Record<string, unknown>> = {},
): void {
	const reply = toolCalls
		.map((call) => call.id)
		.filter((id) => typeof id === 'string' && id !== '');
	for (const call of toolCalls) {
		if (!reply.includes(call.id)) continue;
		calls.delete(call.id);
		calls.set(call.id, {
			name: call.function.name,
			arguments: call.function.arguments,
			reply,
			reasoning,
		});
	}
	for (const oldest of calls.keys()) {
		if (calls.size <= LIMIT) break;
		calls.delete(oldest);
	}
}

export function recallCall(id: string | undefined): RememberedCall | undefined {
	return id === undefined ? undefined : calls.get(id);
}
