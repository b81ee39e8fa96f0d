/**
 * How a rate limit shows on the wire, in the forms OpenAI and LiteLLM use: the 429 body (`type`
 * `requests`, `code` `rate_limit_exceeded`), `Retry-After` in fractional seconds (or whole ones), and the
 * `x-ratelimit-*-requests` headers with the reset as a Go duration (`137ms`, `1.2s`, `1m0s`).
 */
import { maskKey } from './auth.mts';
import type { RateLimit } from './config.mts';
import { ApiError } from './errors.mts';

/** Which limit refused a request: requests started in the window, or requests in flight. */
export type LimitReached = 'window' | 'inFlight';

/** Whole milliseconds, rounded up: a client that waits exactly this long finds the slot free. */
const wholeMs = (ms: number) => Math.max(1, Math.ceil(ms));

/** `137ms`, `1.2s`, `1m26.4s`, as OpenAI's `x-ratelimit-reset-requests` reads. */
export function goDuration(ms: number): string {
	const whole = wholeMs(ms);
	if (whole < 1000) return `${whole}ms`;
	const minutes = Math.floor(whole / 60_000);
	const seconds = `${(whole % 60_000) / 1000}s`;
	return minutes > 0 ? `${minutes}m${seconds}` : seconds;
}

export interface LimitState {
	limit: RateLimit;
	/** Requests counted in the window, this one included when it was admitted. */
	used: number;
	inFlight: number;
	/** Until the oldest request counted in the window leaves it, in ms. */
	nextWindowSlotMs: number;
}

/** The headers of every answer of a limited key. `remaining` is how many more would be admitted now. */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
	const { limit, used, inFlight } = state;
	const inFlightLeft = limit.inFlight === undefined ? Infinity : limit.inFlight - inFlight;
	return {
		'x-ratelimit-limit-requests': String(limit.requests),
		'x-ratelimit-remaining-requests': String(
			Math.max(0, Math.min(limit.requests - used, inFlightLeft)),
		),
		'x-ratelimit-reset-requests': goDuration(state.nextWindowSlotMs),
	};
}

/** The 429 for a request beyond `reached`, telling the client to come back in `waitMs`. */
export function rateLimited(
	key: string,
	state: LimitState,
	reached: LimitReached,
	waitMs: number,
): ApiError {
	const { limit } = state;
	const wait = limit.wholeSeconds ? Math.ceil(waitMs / 1000) * 1000 : wholeMs(waitMs);
	const what =
		reached === 'window'
			? `requests per ${limit.windowSeconds}s on key ${maskKey(key)}: Limit ${limit.requests}, Used ${state.used}`
			: `requests in flight on key ${maskKey(key)}: Limit ${limit.inFlight}, In flight ${state.inFlight}`;
	return new ApiError({
		status: 429,
		message: `Rate limit reached for ${what}, Requested 1. Please try again in ${goDuration(wait)}.`,
		type: 'requests',
		code: 'rate_limit_exceeded',
		headers: { 'Retry-After': String(wait / 1000), ...rateLimitHeaders(state) },
	});
}
