import { readBody } from './body';
import { errorInJson, serviceErrorFrom } from './error-body';
import { IncompleteReplyError, ReplyError } from '../failures/errors';
import type { Completion } from '../protocol';
import type { HttpReply } from '../transport/outgoing';
import { isPlainObject } from '../values';

/** Reads a chat completion reply; any error the service sent, whatever its status, becomes a ServiceError. */
export function parseCompletion(reply: HttpReply): Completion {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body);
	const json = body.json as Record<string, unknown> | undefined;
	if (body.kind !== 'json' || typeof json !== 'object' || json === null || Array.isArray(json)) {
		throw new ReplyError(
			`The service answered ${reply.status} without a JSON completion: ${body.summary}`,
		);
	}
	const embedded = json.error !== undefined && json.error !== null && errorInJson(json);
	// Gateways forward an upstream failure as HTTP 200 whose body is an error object.
	if (embedded && !Array.isArray(json.choices)) throw serviceErrorFrom(reply, body);
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

/** The first choice has the shape the output needs: an object, its message an object, each tool call a function call. */
function wellFormed(choice: unknown): boolean {
	if (!isPlainObject(choice)) return false;
	const { message } = choice;
	if (message === undefined || message === null) return true;
	if (!isPlainObject(message)) return false;
	const calls = message.tool_calls;
	if (calls === undefined || calls === null) return true;
	return (
		Array.isArray(calls) &&
		calls.every((call) => isPlainObject(call) && isPlainObject(call.function))
	);
}

/**
 * A reply that does not say why it stopped may be cut (a gateway that swallowed the provider's failure):
 * an error that keeps the text received, never a silent success. The one check of whole and streamed
 * replies (`streamed`: a stream that ended with [DONE] and no finish_reason).
 */
export function requireFinishReason(completion: Completion, streamed = false): Completion {
	const choice = completion.choices[0];
	const reason = choice.finish_reason;
	if (typeof reason === 'string' && reason !== '') return completion;
	const content = typeof choice.message?.content === 'string' ? choice.message.content : '';
	throw new IncompleteReplyError(
		streamed
			? `The stream ended with [DONE] but never said why the reply stopped (no finish_reason after ${content.length} characters of the reply): the reply may be incomplete`
			: `The service answered without saying why the reply stopped (finish_reason is ${reason === undefined ? 'missing' : JSON.stringify(reason)}): the reply may be incomplete`,
		content,
	);
}
