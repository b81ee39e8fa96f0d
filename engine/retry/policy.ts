import { ServiceError } from '../failures/errors';
import { isRetryable } from '../failures/table';

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

const BASE_DELAY_MS = 500;
const LONGEST_BACKOFF_MS = 30_000;

/** Exponential backoff with full jitter before attempt `failed + 1`. */
function backoff(failed: number, random: () => number): number {
	return random() * Math.min(LONGEST_BACKOFF_MS, BASE_DELAY_MS * 2 ** (failed - 1));
}

/** Requests told to wait the same time come back spread over at least this many ms. */
const MIN_SPREAD_MS = 250;

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
 * jitter, or exactly what the service asked for in Retry-After, within the policy's limits. Whether the
 * failure is retried at all is its row's (`failures/table.ts`).
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
