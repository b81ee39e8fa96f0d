import { sleep } from 'n8n-workflow';

import type { Flow } from './flow';
import type { RetryPolicy } from './policy';
import { isOverload, isRateLimit, rateLimitDelay, retryDelay } from './policy';
import { NetworkError, RateLimitWaitExceeded, ServiceError } from '../failures';

/** Records on the final error how many attempts were made, for the message the user sees. */
function afterAttempts(error: unknown, attempts: number): unknown {
	if (error instanceof ServiceError || error instanceof NetworkError) error.attempts = attempts;
	return error;
}

/** The failure of an item that waited for the rate limit as long as it may. */
function waitedTooLong(
	last: ServiceError,
	told: number,
	waitedMs: number,
	limitMs: number,
): RateLimitWaitExceeded {
	return new RateLimitWaitExceeded(last, told, waitedMs, limitMs);
}

/**
 * Runs `attempt` until it succeeds, fails in a way that cannot succeed, or the policy's retries or
 * total wait are used up; a rate limit (429 asking to wait) is waited out, bounded by the policy's
 * rate-limit wait instead of its retries. Each attempt takes a slot of the limiter (so that Auto sees every answer) and
 * waits for the execution's pause (Retry-After). Waits use n8n's `sleep` with the execution's cancel
 * signal, so a cancel ends a wait at once.
 */
export async function withRetries<T>(
	attempt: () => Promise<T>,
	policy: RetryPolicy,
	{ gate, limiter }: Flow,
	signal?: AbortSignal,
): Promise<T> {
	let waited = 0;
	let failed = 0;
	let rateLimitWaited = 0;
	let told = 0;
	for (;;) {
		const slot = await limiter.acquire(signal);
		try {
			// A pause that began while this request waited for its slot holds it too.
			await gate.wait(signal);
			const result = await attempt();
			slot.release('ok');
			return result;
		} catch (error) {
			slot.release(isOverload(error) ? 'overloaded' : 'failed');
			if (signal?.aborted) throw afterAttempts(error, failed + told + 1);
			if (isRateLimit(error)) {
				// Max Wait on Rate Limit 0: the first 429 fails the item.
				if (policy.maxRateLimitWaitMs === 0) throw afterAttempts(error, failed + told + 1);
				told++;
				const delay = rateLimitDelay(error, told);
				if (rateLimitWaited + delay > policy.maxRateLimitWaitMs) {
					throw waitedTooLong(error, told, rateLimitWaited, policy.maxRateLimitWaitMs);
				}
				// Every request of the execution holds back for what the service asked.
				if (error.retryAfterMs !== undefined) gate.pause(error.retryAfterMs);
				rateLimitWaited += delay;
				await sleep(delay, signal);
				continue;
			}
			failed++;
			const delay = retryDelay(error, failed, waited, policy);
			if (delay === undefined) throw afterAttempts(error, failed + told);
			if (error instanceof ServiceError && error.retryAfterMs !== undefined) gate.pause(delay);
			waited += delay;
			await sleep(delay, signal);
		}
	}
}
