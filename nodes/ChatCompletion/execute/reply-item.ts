import type { IDataObject } from 'n8n-workflow';

import type { ModelReply, protocol } from '../../../engine';
import { errors, promptCacheOf, sentReasoning, splitReasoning, values } from '../../../engine';

export interface ParsedToolCall {
	id: string;
	name: string;
	arguments: IDataObject;
	/** The same object: n8n's expressions refuse to read a field named `arguments`. */
	args: IDataObject;
}

function parseArguments(call: protocol.ProtocolToolCall): IDataObject {
	const raw = call.function?.arguments;
	if (raw === undefined || raw === null || raw === '') return {};
	if (typeof raw === 'object') return raw as IDataObject;
	const parsed = values.tryParseJson(raw);
	if (
		parsed.ok &&
		typeof parsed.value === 'object' &&
		parsed.value !== null &&
		!Array.isArray(parsed.value)
	) {
		return parsed.value as IDataObject;
	}
	const reason = parsed.ok ? 'not an object' : parsed.reason;
	throw new errors.ReplyError(
		`The model called "${call.function?.name}" with arguments that are not a JSON object (${reason}): ${String(raw).slice(0, 200)}`,
	);
}

/** What the client knows of a reply beyond the completion: the model asked, the gateway's id and cost, the models that failed. */
export type ReplyNotes = Partial<
	Pick<ModelReply, 'model' | 'requestId' | 'cost' | 'attempts' | 'warnings'>
>;

/**
 * The simplified output item: the reply, parsed tool calls, usage, and the conversation
 * with the reply appended, ready for the next Chat Completion node; `request_id` and `cost` when the
 * gateway sent them, `prompt_cache` (tokens read from and written to the cache) when its usage counts them, `attempts` when Fallback Models are set,
 * `warnings` when the gateway did not forward fields it was sent.
 */
export function replyItem(
	body: protocol.ChatRequestBody,
	completion: protocol.Completion,
	json?: unknown,
	notes: ReplyNotes = {},
): IDataObject {
	const choice = completion.choices[0];
	const received = choice.message ?? {};
	const { content, reasoning } = splitReasoning(received);
	const protocolCalls = Array.isArray(received.tool_calls) ? received.tool_calls : [];
	const refusal =
		typeof received.refusal === 'string' && received.refusal !== '' ? received.refusal : undefined;
	// In protocol form an assistant message that only calls tools has no content; its reasoning goes back
	// as the service sent it (the content with its inline <think> block, the reasoning fields).
	const message: protocol.ChatMessage = {
		role: 'assistant',
		content: content === '' && (protocolCalls.length > 0 || refusal) ? null : content,
		...sentReasoning(received),
	};
	if (refusal !== undefined) message.refusal = refusal;
	if (protocolCalls.length > 0) {
		message.tool_calls = protocolCalls.map((call) => ({
			id: call.id,
			type: 'function',
			function: {
				name: call.function?.name,
				arguments:
					typeof call.function?.arguments === 'string'
						? call.function.arguments
						: JSON.stringify(call.function?.arguments ?? {}),
			},
		}));
	}
	const item: IDataObject = {
		content,
		tool_calls: protocolCalls.map((call): ParsedToolCall => {
			const parsed = parseArguments(call);
			return { id: call.id, name: call.function?.name, arguments: parsed, args: parsed };
		}) as unknown as IDataObject[],
		finish_reason: choice.finish_reason ?? null,
		usage: (completion.usage ?? {}) as IDataObject,
		model: completion.model ?? notes.model ?? body.model,
		id: completion.id ?? null,
	};
	const promptCache = promptCacheOf(completion.usage);
	if (promptCache !== undefined) item.prompt_cache = promptCache as IDataObject;
	if (notes.requestId !== undefined) item.request_id = notes.requestId;
	if (notes.cost !== undefined) item.cost = notes.cost;
	if (notes.attempts !== undefined) item.attempts = notes.attempts as unknown as IDataObject[];
	if (notes.warnings !== undefined) item.warnings = notes.warnings;
	if (reasoning !== undefined) item.reasoning = reasoning;
	if (refusal !== undefined) item.refusal = refusal;
	if (json !== undefined) item.json = json as IDataObject;
	item.message = message as unknown as IDataObject;
	item.messages = [...body.messages, message] as unknown as IDataObject[];
	return item;
}
