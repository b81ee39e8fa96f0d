import type { IBinaryKeyData } from 'n8n-workflow';

import { FIELDS } from '../fields';
import type { ConversationRequest } from '../request/item-request';
import type { BatchJob, protocol } from '../../../engine';
import { errors, values } from '../../../engine';

/** One item's answer to one of the tool calls its conversation ends with. */
export interface ToolAnswer {
	toolCallId: string;
	content: string;
}

/** One input item, checked: its request, or its answer to a tool call, or what went wrong. */
export interface PreparedItem {
	itemIndex: number;
	request?: ConversationRequest;
	/** The binary data of its output items: the input item's, and its data URIs as binary data. */
	binary?: IBinaryKeyData;
	answer?: ToolAnswer;
	error?: unknown;
}

/** One request to send, and the input items it answers (several when they carry the results of one reply's tool calls). */
export interface Job extends BatchJob {
	request?: ConversationRequest;
	binary?: IBinaryKeyData;
}

const callLabel = (call: protocol.ProtocolToolCall) => `${call.id} (${call.function.name})`;

/** The tool calls a conversation ends with, when its last message is the model asking for them. */
export function pendingToolCalls(
	messages: protocol.ChatMessage[],
): protocol.ProtocolToolCall[] | undefined {
	const last = messages[messages.length - 1];
	return last?.role === 'assistant' && last.tool_calls && last.tool_calls.length > 0
		? last.tool_calls
		: undefined;
}

/** Reads which call an item answers and with what, from the Tool Call ID and Tool Result fields. */
export function toolAnswer(
	toolCallId: unknown,
	toolResult: unknown,
	calls: protocol.ProtocolToolCall[],
): ToolAnswer {
	const id = typeof toolCallId === 'string' ? toolCallId.trim() : '';
	const call = calls.find((candidate) => candidate.id === id);
	if (call === undefined) {
		throw new errors.InputError(
			FIELDS.toolCallId.label,
			`${values.describe(toolCallId)} is not one of the tool calls the conversation ends with: ${calls.map(callLabel).join(', ')}`,
			'Map the "id" field of the Tool Calls item, e.g. {{ $json.id }}, or {{ $(\'Chat Completion\').item.json.id }} when a node in between replaced the item.',
		);
	}
	if (toolResult === undefined || toolResult === null || toolResult === '') {
		throw new errors.InputError(
			FIELDS.toolResult.label,
			`is empty for tool call ${callLabel(call)}`,
			"Map the function's result, e.g. {{ $json.result }}; a node that sets it must keep the other fields (or use an expression that reads them from an earlier node).",
		);
	}
	return {
		toolCallId: id,
		content: typeof toolResult === 'string' ? toolResult : JSON.stringify(toolResult),
	};
}

function combine(group: PreparedItem[]): Job {
	const items = group.map((prepared) => prepared.itemIndex);
	const request = group[0].request as ConversationRequest;
	const calls = pendingToolCalls(request.body.messages) as protocol.ProtocolToolCall[];
	const answers = new Map<string, string>();
	for (const { answer } of group) {
		if (answers.has(answer!.toolCallId)) {
			return {
				items,
				error: new errors.InputError(
					FIELDS.toolCallId.label,
					`two items answer tool call ${answer!.toolCallId}`,
					'Send one result per tool call: check that no branch runs twice for the same call.',
				),
			};
		}
		answers.set(answer!.toolCallId, answer!.content);
	}
	const missing = calls.filter((call) => !answers.has(call.id));
	if (missing.length > 0) {
		return {
			items,
			error: new errors.InputError(
				FIELDS.toolResult.label,
				`the model asked for ${calls.length} tool calls, but no item answers ${missing.map(callLabel).join(', ')}`,
				'Every call of a reply must be answered in the same run: join the branches that run the functions with a Merge node (Append) before this node.',
			),
		};
	}
	const results: protocol.ChatMessage[] = calls.map((call) => ({
		role: 'tool',
		tool_call_id: call.id,
		content: answers.get(call.id) as string,
	}));
	return {
		items,
		model: request.body.model,
		request: {
			...request,
			body: { ...request.body, messages: [...request.body.messages, ...results] },
			conversation: [...request.conversation, ...results],
		},
		binary: group[0].binary,
	};
}

/** The job of an item that is one request of its own. */
export function itemJob({ itemIndex, request, binary, error }: PreparedItem): Job {
	return { items: [itemIndex], model: request?.body.model, request, binary, error };
}

/**
 * Turns checked items into requests: an item is one request, except items that answer the
 * tool calls of the same reply, which together make one request with all the results.
 */
export function planJobs(prepared: PreparedItem[]): Job[] {
	const slots: Array<Job | PreparedItem[]> = [];
	const groups = new Map<string, PreparedItem[]>();
	for (const item of prepared) {
		if (item.answer === undefined) {
			slots.push(itemJob(item));
			continue;
		}
		const calls = pendingToolCalls(item.request!.body.messages) as protocol.ProtocolToolCall[];
		const key = JSON.stringify(calls.map((call) => call.id));
		const group = groups.get(key);
		if (group) {
			group.push(item);
		} else {
			const created = [item];
			groups.set(key, created);
			slots.push(created);
		}
	}
	return slots.map((slot) => (Array.isArray(slot) ? combine(slot) : slot));
}
