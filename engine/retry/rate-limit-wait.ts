import { backoff } from './policy';
import type { ServiceError } from '../failures/errors';
import type { KeySign } from '../failures/kind';
import { inFlightCapWords, windowWords } from '../failures/kinds/service';
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
 * by what it told the key (`sign`, its row's `keySign` as `Run.send` read and learned it): after a cap on requests in flight (the key's
 * limit came down to it) the request is tried again at once, the slot waiting for fewer in flight (told
 * again, it backs off); after a window, until the window has room (the key pauses that long); else what it
 * asked.
 */
export function rateLimitWait(
	error: ServiceError,
	sign: KeySign | undefined,
	told: number,
	run: Run,
	model: string | undefined,
	leftMs: number,
	random: () => number = Math.random,
): number | undefined {
	if (sign !== undefined && 'cap' in sign) {
		const delay = told === 1 ? 0 : Math.round(backoff(told - 1, random));
		if (delay > leftMs) return undefined;
		run.tell('in-flight cap', `${inFlightCapWords(sign.cap, run.key.inFlightLimit)}.`);
		return delay;
	}
	if (sign !== undefined && 'window' in sign) {
		const delay = run.key.held(model).leftMs;
		if (delay > leftMs) return undefined;
		run.tell('window', `${windowWords(sign.window)}: waiting ${Math.ceil(delay / 1000)} s.`);
		return delay;
	}
	const delay = rateLimitDelay(error, told, random);
	return delay > leftMs ? undefined : delay;
}
