import { isModelUnavailable, isOutOfBalance, NetworkError, ServiceError } from '../failures';

export interface RetryPolicy {
	/** Retries after the first attempt. */
	maxRetries: number;
	/** The most time all waits between attempts may add up to. */
	maxWaitMs: number;
	/** The most time one item may wait for rate limits (429s that ask to wait), in all; 0 = none. */
	maxRateLimitWaitMs: number;
	/** Whether a request that timed out is sent again (Options > Retry Timeouts); not by default. */
	retryTimeouts?: boolean;
}

const RETRIED_STATUSES = [429, 500, 502, 503, 504];
/** Connections that failed before an answer began: another try can succeed. */
const RETRIED_NETWORK_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET'];
/**
 * No answer within Timeout: the service may still be writing (and billing) it, so sending again can cost
 * the whole answer and the whole Timeout once more. Retried only when Retry Timeouts is on.
 */
const TIMEOUT_CODES = ['ETIMEDOUT', 'ECONNABORTED'];

/** Whether the request got no answer within its timeout. */
export function isTimeout(error: unknown): boolean {
	return error instanceof NetworkError && TIMEOUT_CODES.includes(error.code);
}
const BASE_DELAY_MS = 500;
const LONGEST_BACKOFF_MS = 30_000;

/**
 * Whether another attempt can succeed: rate limits, server and gateway failures, lost connections (and
 * timeouts when `retryTimeouts`); never bad requests, keys, quota, missing models, nor what n8n refused to
 * send.
 */
export function isRetryable(error: unknown, retryTimeouts = false): boolean {
	if (error instanceof ServiceError) {
		// A failure inside a 2xx stream came after the reply began: it is not sent again.
		if (!RETRIED_STATUSES.includes(error.status)) return false;
		return !isOutOfBalance(error) && !isModelUnavailable(error);
	}
	if (isTimeout(error)) return retryTimeouts;
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

/** Exponential backoff with full jitter before attempt `failed + 1`. */
function backoff(failed: number, random: () => number): number {
	return random() * Math.min(LONGEST_BACKOFF_MS, BASE_DELAY_MS * 2 ** (failed - 1));
}

/** Requests told to wait the same time come back spread over at least this many ms. */
const MIN_SPREAD_MS = 250;

/**
 * A 429 that asks the client to wait: a rate limit (`rate_limit_exceeded` or any 429 that is not about
 * balance). It is a queue, not a failure: waiting for it spends no retry, only the rate-limit wait.
 */
export function isRateLimit(error: unknown): error is ServiceError {
	return error instanceof ServiceError && error.status === 429 && !isOutOfBalance(error);
}

/**
 * How long to wait after the `told`-th rate limit of one item: what Retry-After asks plus a random share
 * of it (at least 250 ms), so that requests told the same instant do not all come back together; without
 * Retry-After, backoff with full jitter.
 */
export function rateLimitDelay(
	error: ServiceError,
	told: number,
	random: () => number = Math.random,
): number {
	const asked = error.retryAfterMs;
	if (asked === undefined) return Math.round(backoff(told, random));
	return Math.round(asked + random() * Math.max(MIN_SPREAD_MS, asked));
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
	if (failed > policy.maxRetries || !isRetryable(error, policy.retryTimeouts)) return undefined;
	const asked = error instanceof ServiceError ? error.retryAfterMs : undefined;
	const delay = Math.round(asked ?? backoff(failed, random));
	return waitedMs + delay > policy.maxWaitMs ? undefined : delay;
}
