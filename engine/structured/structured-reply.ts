/**
 * Response Format JSON (here): parse and check the reply (`read-json.ts`, also what the Chat Model's
 * `withStructuredOutput` gets back), the repair round, the instruction fallback, usage summed.
 */
import { repairRequest, withInstruction } from './conversation';
import { readJson } from './read-json';
import { ServiceError, StructuredReplyError } from '../failures/errors';
import type { ChatRequestBody, Completion } from '../protocol';
import { splitReasoning } from '../reply/reasoning';
import type { StructuredOutput } from '../request/response-format';
import { isPlainObject } from '../values';

/** A completion, and the parsed JSON when the request asked for JSON. */
export interface ChatReply {
	completion: Completion;
	json?: unknown;
}

/** Sends one request body and gives its completion (with the request's retries), streaming its text to `onText`. */
export type Ask = (body: ChatRequestBody, onText?: (delta: string) => void) => Promise<Completion>;

type Usage = NonNullable<Completion['usage']>;

/**
 * What the service bills: the usage of every request made for one item, every number summed wherever it
 * is (token counts, their details, `cost`); other values as the last request reported them.
 */
function sumUsage(usages: Array<Record<string, unknown>>): Record<string, unknown> {
	const sum: Record<string, unknown> = {};
	for (const usage of usages) {
		for (const [field, value] of Object.entries(usage)) {
			const before = sum[field];
			if (typeof value === 'number') {
				sum[field] = typeof before === 'number' ? before + value : value;
			} else if (isPlainObject(value)) {
				sum[field] = sumUsage(isPlainObject(before) ? [before, value] : [value]);
			} else {
				sum[field] = value;
			}
		}
	}
	return sum;
}

/** The service cannot take this `response_format` (DeepSeek's json_schema, OpenAI's "json" word rule, ...). */
function rejectsResponseFormat(error: unknown): boolean {
	return (
		error instanceof ServiceError &&
		(error.status === 400 || error.status === 422) &&
		/response_format|json_schema/i.test(error.serviceMessage)
	);
}

function failure(structured: StructuredOutput, repairs: number, answer: string, problems: string) {
	const what =
		structured.format === 'jsonSchema'
			? 'The reply does not follow the JSON Schema'
			: 'The reply is not a JSON object';
	const after =
		repairs === 0 ? '' : `, also after ${repairs} repair attempt${repairs === 1 ? '' : 's'}`;
	return new StructuredReplyError(`${what}${after}: ${problems}`, answer, problems);
}

/**
 * The reply to a request that asks for JSON, read as JSON: a service that rejects `response_format` is
 * asked again with the demand as an instruction; an answer that is not valid JSON for the schema is sent
 * back with what is wrong, up to the Repair Attempts. The usage returned counts every request made. Only
 * the first answer is streamed to `onText`.
 */
export async function structuredReply(
	body: ChatRequestBody,
	structured: StructuredOutput,
	send: Ask,
	onText?: (delta: string) => void,
): Promise<ChatReply> {
	const usages: Usage[] = [];
	let streamed = false;
	const forward = onText && ((delta: string) => ((streamed = true), onText(delta)));
	const ask = async (asked: ChatRequestBody) => {
		const completion = await send(asked, streamed ? undefined : forward);
		if (completion.usage) usages.push(completion.usage);
		return completion;
	};
	let completion = await ask(body).catch((error: unknown) => {
		if (!rejectsResponseFormat(error)) return Promise.reject(error);
		body = withInstruction(body, structured);
		return ask(body);
	});
	for (let repairs = 0; ; repairs++) {
		const message = completion.choices[0].message ?? {};
		const billed =
			usages.length > 1 ? { ...completion, usage: sumUsage(usages) as Usage } : completion;
		// A reply that calls tools has no answer yet: the JSON comes after the tool results.
		if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0)
			return { completion: billed };
		const answer = splitReasoning(message).content;
		const reading = readJson(answer, structured);
		if (reading.ok) return { completion: billed, json: reading.value };
		if (repairs >= structured.repairAttempts)
			throw failure(structured, repairs, answer, reading.problems);
		completion = await ask(repairRequest(body, answer, reading.problems, structured));
	}
}
