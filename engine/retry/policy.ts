import { ServiceError } from '../failures/errors';
import { classify } from '../failures/table';

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

/** Whether another attempt of the same request may succeed (timeouts only when Retry Timeouts is on). */
export function isRetryable(error: unknown, retryTimeouts = false): boolean {
	const { retry } = classify(error);
	return (
		retry === 'back-off' ||
		retry === 'wait' ||
		(retry === 'back-off-if-timeouts-retried' && retryTimeouts)
	);
}

const BASE_DELAY_MS = 500;
const LONGEST_BACKOFF_MS = 30_000;

/** Exponential backoff with full jitter before attempt `failed + 1`. */
export function backoff(failed: number, random: () => number): number {
	return random() * Math.min(LONGEST_BACKOFF_MS, BASE_DELAY_MS * 2 ** (failed - 1));
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
