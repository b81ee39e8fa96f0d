/**
 * How long to wait (`policy.ts`: backoff with jitter, Retry-After; `rate-limit-wait.ts`: after a 429 that
 * asks to wait, by what its row says it told the key: a cap on requests in flight, a window, or the wait
 * asked) and the loop of attempts (here, which also holds the item's Max Wait on Rate Limit that bounds
 * every pause and pacing hold). Whether a failure is retried at all is its row's.
 */
import { sleep } from 'n8n-workflow';

import type { RetryPolicy } from './policy';
import { retryDelay } from './policy';
import { rateLimitWait } from './rate-limit-wait';
import { NetworkError, RateLimitWaitExceeded, ServiceError } from '../failures/errors';
import type { HoldBudget } from '../key/hold-budget';
import type { Observe, Reading, Run, SendOptions } from '../run/run';

/**
 * Records on the final error how many attempts were made, and how many requests were sent again at once on
 * a new connection (`resent`), for the message the user sees.
 */
function afterAttempts(error: unknown, attempts: number, resent: number): unknown {
	if (error instanceof ServiceError || error instanceof NetworkError) error.attempts = attempts;
	if (error instanceof NetworkError) error.resent = resent;
	return error;
}

/**
 * Runs `attempt` through the run (`Run.send`: a slot, the pauses, the pacing, the Token Budget) until it
 * succeeds, fails in a way that cannot succeed, or the policy's retries or total wait are used up; a rate
 * limit (429 asking to wait) is waited out as its kind says (`rate-limit-wait.ts`), bounded by the policy's
 * rate-limit wait instead of its retries, which also bounds the time the request is held by the key's pauses
 * and pacing. Waits use n8n's `sleep` with the request's cancel signal, so a cancel ends a wait at once.
 */
export async function withRetries<T>(
	attempt: (observe: Observe) => Promise<T>,
	policy: RetryPolicy,
	run: Run,
	options: SendOptions<T>,
): Promise<T> {
	const { signal, model } = options;
	const limitMs = policy.maxRateLimitWaitMs;
	let waited = 0;
	let failed = 0;
	let rateLimitWaited = 0;
	let told = 0;
	let resent = 0;
	const hold: HoldBudget = {
		get leftMs() {
			return limitMs - rateLimitWaited;
		},
		limitMs,
		held: (ms) => (rateLimitWaited += ms),
		outlasted: (cause) => new RateLimitWaitExceeded(cause, told, rateLimitWaited, limitMs),
	};
	for (;;) {
		/** What the run read of the attempt's failure (`Run.send` reads it once). */
		let reading: Reading | undefined;
		try {
			return await run.send(attempt, {
				...options,
				first: failed + told === 0,
				hold,
				read: (read) => (reading = read),
			});
		} catch (error) {
			if (error instanceof NetworkError) resent += error.resent;
			if (signal.aborted) throw afterAttempts(error, failed + told + 1, resent);
			if (reading?.row.retry === 'wait') {
				const limited = error as ServiceError;
				// Max Wait on Rate Limit 0: the first 429 fails the item.
				if (limitMs === 0) throw afterAttempts(error, failed + told + 1, resent);
				told++;
				const delay = rateLimitWait(limited, reading.sign, told, run, model, hold.leftMs);
				if (delay === undefined) throw hold.outlasted(limited);
				rateLimitWaited += delay;
				await sleep(delay, signal);
				continue;
			}
			failed++;
			const delay = retryDelay(error, failed, waited, policy);
			if (delay === undefined) throw afterAttempts(error, failed + told, resent);
			waited += delay;
			await sleep(delay, signal);
		}
	}
}
