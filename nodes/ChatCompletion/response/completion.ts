import { readBody } from './body';
import { errorInJson, serviceErrorFrom } from './error-body';
import { ReplyError, ServiceError } from './service-error';
import type { ProtocolToolCall } from '../request/types';
import type { HttpReply } from '../transport/http';

/** A chat completion as the service sends it (SERVICE.md 2.4); unknown fields are kept. */
export interface Completion {
	id?: string;
	object?: string;
	created?: number;
	model?: string;
	choices: Array<{
		index?: number;
		message?: {
			role?: string;
			content?: unknown;
			tool_calls?: ProtocolToolCall[];
			reasoning_content?: unknown;
			reasoning?: unknown;
			[field: string]: unknown;
		};
		finish_reason?: string | null;
	}>;
	usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
	[field: string]: unknown;
}

/** Reads a chat completion reply; any error the service sent, whatever its status, becomes a ServiceError. */
export function parseCompletion(reply: HttpReply): Completion {
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply);
	const body = readBody(reply.text);
	const json = body.json as Record<string, unknown> | undefined;
	if (body.kind !== 'json' || typeof json !== 'object' || json === null || Array.isArray(json)) {
		throw new ReplyError(
			`The service answered ${reply.status} without a JSON completion: ${body.summary}`,
		);
	}
	const embedded = json.error === undefined || json.error === null ? undefined : errorInJson(json);
	if (embedded && !Array.isArray(json.choices)) {
		// Gateways forward an upstream failure as HTTP 200 whose body is an error object.
		throw new ServiceError(
			reply.status,
			embedded.message ?? body.summary,
			embedded.type,
			embedded.code,
			'json',
		);
	}
	if (!Array.isArray(json.choices) || json.choices.length === 0) {
		throw new ReplyError(`The service answered ${reply.status} with no choices: ${body.summary}`);
	}
	if (!wellFormed(json.choices[0])) {
		throw new ReplyError(
			`The service answered ${reply.status} with a malformed choice: ${body.summary}`,
		);
	}
	return json as unknown as Completion;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first choice has the shape the output needs: an object, its message an object, each tool call a function call. */
function wellFormed(choice: unknown): boolean {
	if (!isObject(choice)) return false;
	const { message } = choice;
	if (message === undefined || message === null) return true;
	if (!isObject(message)) return false;
	const calls = message.tool_calls;
	if (calls === undefined || calls === null) return true;
	return Array.isArray(calls) && calls.every((call) => isObject(call) && isObject(call.function));
}
