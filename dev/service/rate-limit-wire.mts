/**
 * How a rate limit shows on the wire in OpenAI's forms, which the local style and others build on: the 429
 * body (`type` `requests`, `code` `rate_limit_exceeded`), and the `x-ratelimit-*-requests` headers with the
 * reset as a Go duration (`137ms`, `1.2s`, `1m0s`).
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
	/** How many more the window would count now. */
	left: number;
	inFlight: number;
	/** Until the window's reset as its style tells it (local: its oldest request leaves it), in ms. */
	resetMs: number;
	/** Unix milliseconds. */
	now: number;
}

/**
 * What the window leaves now, as OpenAI's and LiteLLM's `x-ratelimit-remaining-requests` tell it: the count of
 * the rate limit alone. A cap on requests in flight is told only by its own 429, as theirs is.
 */
export function remaining({ left }: LimitState): number {
	return Math.max(0, left);
}

/** The headers of every answer of a limited key, the reset written by `reset`. */
export function rateLimitHeaders(
	state: LimitState,
	reset: (ms: number) => string = goDuration,
): Record<string, string> {
	return {
		'x-ratelimit-limit-requests': String(state.limit.requests),
		'x-ratelimit-remaining-requests': String(remaining(state)),
		'x-ratelimit-reset-requests': reset(state.resetMs),
	};
}

/** The wait a 429 asks for, in ms: whole ms rounded up, or whole seconds with `wholeSeconds`. */
export function askedWait(limit: RateLimit, waitMs: number): number {
	return limit.wholeSeconds ? Math.ceil(waitMs / 1000) * 1000 : wholeMs(waitMs);
}

/**
 * OpenAI's 429 for a request beyond `reached` (`type` `requests`, `code` `rate_limit_exceeded`, "Please try
 * again in 137ms"), telling the client to come back in `waitMs`, with `headers`.
 */
export function rateLimited(
	key: string,
	state: LimitState,
	reached: LimitReached,
	waitMs: number,
	headers: Record<string, string>,
): ApiError {
	const { limit } = state;
	const what =
		reached === 'window'
			? `requests per ${limit.windowSeconds}s on key ${maskKey(key)}: Limit ${limit.requests}, Used ${state.used}`
			: `requests in flight on key ${maskKey(key)}: Limit ${limit.inFlight}, In flight ${state.inFlight}`;
	return new ApiError({
		status: 429,
		message: `Rate limit reached for ${what}, Requested 1. Please try again in ${goDuration(askedWait(limit, waitMs))}.`,
		type: 'requests',
		code: 'rate_limit_exceeded',
		headers,
	});
}
