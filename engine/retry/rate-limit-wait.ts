import { backoff } from './policy';
import type { ServiceError } from '../failures/errors';
import { inFlightCapWords, windowWords } from '../failures/kinds/service';
import { inFlightCap, namedWindow } from '../failures/service-signs';
import type { Run } from '../run/run';

/** Requests told the same wait come back spread over at least this many ms, and at most a second more. */
const MIN_SPREAD_MS = 250;
const MAX_SPREAD_MS = 1000;

/**
 * How long to wait after the `told`-th rate limit of one item: what the service asked (retry-after-ms,
 * Retry-After, a reset) plus a random share of it (at least 250 ms, at most a second), so that requests told
 * the same instant do not all come back together; without a wait asked, backoff with full jitter.
 */
export function rateLimitDelay(
	error: ServiceError,
	told: number,
	random: () => number = Math.random,
): number {
	const asked = error.retryAfterMs;
	if (asked === undefined) return Math.round(backoff(told, random));
	return Math.round(asked + random() * Math.min(MAX_SPREAD_MS, Math.max(MIN_SPREAD_MS, asked)));
}

/**
 * The wait after a 429 that asks to wait, when it fits in `leftMs` (else undefined: the item waits no more),
 * with what it tells every request on the key (`run.key`): after a cap on requests in flight (the key's limit
 * came down to it in `Run.send`) the request is tried again at once, the slot waiting for fewer in flight
 * (told again, it backs off); a window that a 429 names is waited out on its own scale and holds every request
 * until it has room; any other asks the key's requests to pause for what it asked.
 */
export function rateLimitWait(
	error: ServiceError,
	told: number,
	run: Run,
	leftMs: number,
	random: () => number = Math.random,
): number | undefined {
	const cap = inFlightCap(error);
	if (cap !== undefined) {
		const delay = told === 1 ? 0 : Math.round(backoff(told - 1, random));
		if (delay > leftMs) return undefined;
		run.tell('in-flight cap', `${inFlightCapWords(cap, run.key.inFlight.limit)}.`);
		return delay;
	}
	const window = namedWindow(error);
	if (window !== undefined) {
		const delay = run.key.window.refused(window);
		if (delay > leftMs) return undefined;
		run.gate.pause(delay);
		run.tell('window', `${windowWords(window)}: waiting ${Math.ceil(delay / 1000)} s.`);
		return delay;
	}
	const delay = rateLimitDelay(error, told, random);
	if (delay > leftMs) return undefined;
	if (error.retryAfterMs !== undefined) run.gate.pause(error.retryAfterMs);
	return delay;
}
