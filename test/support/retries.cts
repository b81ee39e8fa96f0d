/** Runs `attempt` with the engine's retries in a run of its own (or the one given), as a request of a node (for `model`) would. */
import { Run } from '../../engine/run/run';
import type { RetryPolicy } from '../../engine/retry/policy';
import { withRetries } from '../../engine/retry/with-retries';

export async function retried<T>(
	attempt: () => Promise<T>,
	policy: RetryPolicy,
	run = new Run({ concurrency: 1, tokenBudget: 0 }),
	cancel?: AbortSignal,
	model?: string,
): Promise<T> {
	return await withRetries(attempt, policy, run, {
		signal: run.signal(cancel),
		tokensOf: () => undefined,
		model,
	});
}
