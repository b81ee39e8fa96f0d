import type { ServiceError } from '../failures/errors';

/** How long a request may still be held for the key's rate limits (its Max Wait on Rate Limit), and what it was. */
export interface HoldBudget {
	/** The most the request may still be held, in ms. */
	readonly leftMs: number;
	/** The most it may be held in all (Max Wait on Rate Limit), in ms. */
	readonly limitMs: number;
	/** Counts time the request was held. */
	held(ms: number): void;
	/** The failure of a request that a pause would hold longer than it may wait (`cause`, the answer that asked). */
	outlasted(cause: ServiceError): Error;
}

/** A request that may wait as long as the rate limits ask (no Max Wait). */
export const UNBOUNDED: HoldBudget = {
	leftMs: Infinity,
	limitMs: Infinity,
	held: () => undefined,
	outlasted: (cause) => cause,
};
