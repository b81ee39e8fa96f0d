import { ReplyError, ServiceError } from '../failures/errors';
import type { Completion } from '../protocol';
import { isPlainObject } from '../values';

/**
 * What a gateway says of one request besides the reply: its id (new-api/one-api `X-Oneapi-Request-Id`,
 * `X-Request-Id`, LiteLLM's `x-litellm-call-id`, or OpenRouter's generation id, the completion's `gen-...`
 * id) and its cost as the gateway reports it (`usage.cost`, OpenRouter and others; LiteLLM's
 * `x-litellm-response-cost` header). Never an estimate of our own.
 */
export interface Billing {
	requestId?: string;
	cost?: number;
}

/** In the order they are looked for (headers are read in lower case). */
const ID_HEADERS = ['x-oneapi-request-id', 'x-request-id', 'x-litellm-call-id'];
const COST_HEADER = 'x-litellm-response-cost';

/** The request id in the headers, if any. */
export function requestIdIn(headers: Record<string, string>): string | undefined {
	for (const name of ID_HEADERS) {
		const value = headers[name]?.trim();
		if (value) return value;
	}
	return undefined;
}

function amount(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

/** The id and cost of the request whose headers and completion these are. */
export function billingOf(headers: Record<string, string>, completion: Completion): Billing {
	const generation =
		typeof completion.id === 'string' && completion.id.startsWith('gen-')
			? completion.id
			: undefined;
	const usage: unknown = completion.usage;
	return {
		requestId: requestIdIn(headers) ?? generation,
		cost: amount(headers[COST_HEADER]) ?? (isPlainObject(usage) ? amount(usage.cost) : undefined),
	};
}

/** Marks a failure of the reply with the request id its headers named (a header wins over the message's). */
export function withRequestId(error: unknown, headers: Record<string, string>): unknown {
	if (error instanceof ServiceError || error instanceof ReplyError) {
		error.requestId = requestIdIn(headers) ?? error.requestId;
	}
	return error;
}
