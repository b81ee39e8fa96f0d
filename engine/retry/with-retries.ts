import { sleep } from 'n8n-workflow';

import type { Flow } from './flow';
import type { RetryPolicy } from './policy';
import { isOverload, retryDelay } from './policy';
import { NetworkError, ServiceError } from '../failures';

/** Records on the final error how many attempts were made, for the message the user sees. */
function afterAttempts(error: unknown, attempts: number): unknown {
	if (error instanceof ServiceError || error instanceof NetworkError) error.attempts = attempts;
	return error;
}

/**
 * Runs `attempt` until it succeeds, fails in a way that cannot succeed, or the policy's retries or
 * total wait are used up. Each attempt takes a slot of the limiter (so that Auto sees every answer) and
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
	for (let failed = 0; ; ) {
		const slot = await limiter.acquire(signal);
		try {
			// A pause that began while this request waited for its slot holds it too.
			await gate.wait(signal);
			const result = await attempt();
			slot.release('ok');
			return result;
		} catch (error) {
			slot.release(isOverload(error) ? 'overloaded' : 'failed');
			failed++;
			const delay = signal?.aborted ? undefined : retryDelay(error, failed, waited, policy);
			if (delay === undefined) throw afterAttempts(error, failed);
			if (error instanceof ServiceError && error.retryAfterMs !== undefined) gate.pause(delay);
			waited += delay;
			await sleep(delay, signal);
		}
	}
}
