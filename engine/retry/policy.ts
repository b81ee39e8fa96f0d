import { isModelUnavailable, isOutOfBalance, NetworkError, ServiceError } from '../failures';

export interface RetryPolicy {
	/** Retries after the first attempt. */
	maxRetries: number;
	/** The most time all waits between attempts may add up to. */
	maxWaitMs: number;
}

const RETRIED_STATUSES = [429, 500, 502, 503, 504];
const RETRIED_NETWORK_CODES = [
	'ECONNRESET',
	'ECONNREFUSED',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'EAI_AGAIN',
	'UND_ERR_SOCKET',
];
const BASE_DELAY_MS = 500;
const LONGEST_BACKOFF_MS = 30_000;

/** Whether another attempt can succeed: rate limits, server and gateway failures, lost connections; never bad requests, keys, quota or missing models. */
export function isRetryable(error: unknown): boolean {
	if (error instanceof ServiceError) {
		// A failure inside a 2xx stream came after the reply began: it is not sent again.
		if (!RETRIED_STATUSES.includes(error.status)) return false;
		return !isOutOfBalance(error) && !isModelUnavailable(error);
	}
	return error instanceof NetworkError && RETRIED_NETWORK_CODES.includes(error.code);
}

/**
 * The service says it is overloaded: a rate limit (429 that is not about balance) or 503 (not a model the
 * key cannot reach). Auto sends fewer requests at once after it.
 */
export function isOverload(error: unknown): boolean {
	if (!(error instanceof ServiceError)) return false;
	if (error.status === 429) return !isOutOfBalance(error);
	return error.status === 503 && !isModelUnavailable(error);
}

/**
 * How long to wait before attempt `failed + 1`, or undefined to stop: exponential backoff with full
 * jitter, or exactly what the service asked for in Retry-After, within the policy's limits.
 */
export function retryDelay(
	error: unknown,
	failed: number,
	waitedMs: number,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number | undefined {
	if (failed > policy.maxRetries || !isRetryable(error)) return undefined;
	const backoff = random() * Math.min(LONGEST_BACKOFF_MS, BASE_DELAY_MS * 2 ** (failed - 1));
	const asked = error instanceof ServiceError ? error.retryAfterMs : undefined;
	const delay = Math.round(asked ?? backoff);
	return waitedMs + delay > policy.maxWaitMs ? undefined : delay;
}
