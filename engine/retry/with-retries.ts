import { sleep } from 'n8n-workflow';

import type { RetryPolicy } from './policy';
import { retryDelay } from './policy';
import { rateLimitWait } from './rate-limit-wait';
import { NetworkError, RateLimitWaitExceeded, ServiceError } from '../failures/errors';
import { classify } from '../failures/table';
import type { Observe, Run, SendOptions } from '../run/run';

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
	policy: RetryPolicy,
): RateLimitWaitExceeded {
	return new RateLimitWaitExceeded(last, told, waitedMs, policy.maxRateLimitWaitMs);
}

/**
 * Runs `attempt` through the run (`Run.send`: a slot, the pause, the pacing, the Token Budget) until it
 * succeeds, fails in a way that cannot succeed, or the policy's retries or total wait are used up; a rate
 * limit (429 asking to wait) is waited out as its kind says (`rate-limit-wait.ts`), bounded by the policy's
 * rate-limit wait instead of its retries. Waits use n8n's `sleep` with the request's cancel signal, so a
 * cancel ends a wait at once.
 */
export async function withRetries<T>(
	attempt: (observe: Observe) => Promise<T>,
	policy: RetryPolicy,
	run: Run,
	options: SendOptions<T>,
): Promise<T> {
	const { signal } = options;
	let waited = 0;
	let failed = 0;
	let rateLimitWaited = 0;
	let told = 0;
	for (;;) {
		try {
			return await run.send(attempt, {
				...options,
				first: failed + told === 0,
				maxHoldMs: policy.maxRateLimitWaitMs,
			});
		} catch (error) {
			if (signal.aborted) throw afterAttempts(error, failed + told + 1);
			if (classify(error).retry === 'wait') {
				const limited = error as ServiceError;
				// Max Wait on Rate Limit 0: the first 429 fails the item.
				if (policy.maxRateLimitWaitMs === 0) throw afterAttempts(error, failed + told + 1);
				told++;
				const delay = rateLimitWait(
					limited,
					told,
					run,
					policy.maxRateLimitWaitMs - rateLimitWaited,
				);
				if (delay === undefined) throw waitedTooLong(limited, told, rateLimitWaited, policy);
				rateLimitWaited += delay;
				await sleep(delay, signal);
				continue;
			}
			failed++;
			const delay = retryDelay(error, failed, waited, policy);
			if (delay === undefined) throw afterAttempts(error, failed + told);
			if (error instanceof ServiceError && error.retryAfterMs !== undefined) run.gate.pause(delay);
			waited += delay;
			await sleep(delay, signal);
		}
	}
}
