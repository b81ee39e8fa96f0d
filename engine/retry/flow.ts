import { PauseGate } from './pause-gate';
import type { Limiter } from '../concurrency/limiter';
import { fixedLimiter, LimiterClosed } from '../concurrency/limiter';
import { NetworkError } from '../failures';
import type { TokenBudget } from '../token-budget';

/**
 * What the requests of one execution share: the pause a Retry-After puts on all of them, the slots for
 * requests in flight (fixed, or Auto), and the stop: once a failure ends the execution (On Error: Stop
 * Workflow), no request starts and those in flight are cancelled, so that no more replies are paid for and
 * thrown away.
 */
export class Flow {
	readonly gate = new PauseGate();
	readonly #stop = new AbortController();
	/** Requests sent to the service so far (a request's retries are not counted again). */
	sent = 0;
	/** Requests in flight when the execution stopped, and so cancelled. */
	cancelled = 0;
	/** Options > Token Budget of the run, when set: checked before each request is sent. */
	budget?: TokenBudget;

	/** One request at a time unless a limiter is given. */
	constructor(readonly limiter: Limiter = fixedLimiter(1)) {}

	/** Aborts when the execution stops (see `stop`). */
	get stopped(): AbortSignal {
		return this.#stop.signal;
	}

	/** Stops the execution's requests: none starts any more; those in flight, or waiting to retry, end. */
	stop(): void {
		if (this.#stop.signal.aborted) return;
		this.cancelled = this.limiter.inFlight;
		this.limiter.close();
		this.#stop.abort(new LimiterClosed());
	}

	/** Whether `error` ended a request only because the execution stopped, not because of the request itself. */
	stoppedBy(error: unknown): boolean {
		return (
			this.#stop.signal.aborted &&
			(error instanceof LimiterClosed ||
				(error instanceof NetworkError && error.code === 'ERR_CANCELED'))
		);
	}
}
