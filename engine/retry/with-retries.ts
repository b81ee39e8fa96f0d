import { sleep } from 'n8n-workflow';

import type { PauseGate } from './pause-gate';
import type { RetryPolicy } from './policy';
import { retryDelay } from './policy';
import { NetworkError, ServiceError } from '../failures';

/** Records on the final error how many attempts were made, for the message the user sees. */
function afterAttempts(error: unknown, attempts: number): unknown {
	if (error instanceof ServiceError || error instanceof NetworkError) error.attempts = attempts;
	return error;
}

/**
 * Runs `attempt` until it succeeds, fails in a way that cannot succeed, or the policy's retries or
 * total wait are used up. Waits use n8n's `sleep` with the execution's cancel signal, so a cancel
 * ends a wait at once.
 */
export async function withRetries<T>(
	attempt: () => Promise<T>,
	policy: RetryPolicy,
	gate: PauseGate,
	signal?: AbortSignal,
): Promise<T> {
	let waited = 0;
	for (let failed = 0; ; ) {
		await gate.wait(signal);
		try {
			return await attempt();
		} catch (error) {
			failed++;
			const delay = signal?.aborted ? undefined : retryDelay(error, failed, waited, policy);
			if (delay === undefined) throw afterAttempts(error, failed);
			if (error instanceof ServiceError && error.retryAfterMs !== undefined) gate.pause(delay);
			waited += delay;
			await sleep(delay, signal);
		}
	}
}
