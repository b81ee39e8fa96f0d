import { PauseGate } from './pause-gate';
import type { Limiter } from '../concurrency/limiter';
import { fixedLimiter } from '../concurrency/limiter';

/**
 * What the requests of one execution share: the pause a Retry-After puts on all of them, and the slots
 * for requests in flight (fixed, or Auto).
 */
export interface Flow {
	gate: PauseGate;
	limiter: Limiter;
}

/** A flow for one execution; one request at a time unless a limiter is given. */
export function newFlow(limiter: Limiter = fixedLimiter(1)): Flow {
	return { gate: new PauseGate(), limiter };
}
