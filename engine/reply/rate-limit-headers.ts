/**
 * What a gateway says of a key's rate limits on its replies, beyond Retry-After: OpenAI and LiteLLM send
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` on every reply (the reset as a Go duration at
 * OpenAI, `12ms`, `1s`, `6m0s`; whole seconds at LiteLLM), meaning "the bucket is full again then";
 * OpenRouter's 429 carries `x-ratelimit-reset` as an instant in epoch milliseconds. Only sane values count.
 */

/** The longest wait or reset taken from a header: beyond a day a value is not believed. */
export const LONGEST_RESET_MS = 86_400_000;

/** One limit of the key as a reply reports it. */
export interface LimitReport {
	/** How many the limit allows per period, when said. */
	limit?: number;
	/** How many are left now. */
	remaining: number;
	/** In how many ms the bucket is full again, when said. */
	resetMs?: number;
}

/** The key's limits as a reply reports them: requests, and tokens. */
export interface RateLimitHeaders {
	requests?: LimitReport;
	tokens?: LimitReport;
}

const GO_UNITS: Record<string, number> = {
	h: 3_600_000,
	m: 60_000,
	s: 1000,
	ms: 1,
	us: 1e-3,
	µs: 1e-3,
	ns: 1e-6,
};
const GO_DURATION = /^(\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns))+$/;
const GO_PART = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;

/** A sane time span in ms, or undefined. */
function sane(ms: number): number | undefined {
	return Number.isFinite(ms) && ms >= 0 && ms <= LONGEST_RESET_MS ? Math.round(ms) : undefined;
}

/** A reset as OpenAI writes it (a Go duration: `12ms`, `1.5s`, `6m0s`) or as LiteLLM does (seconds: `27`, `0.5`). */
export function parseResetDuration(value: string | undefined): number | undefined {
	const text = value?.trim() ?? '';
	if (/^\d+(\.\d+)?$/.test(text)) return sane(Number(text) * 1000);
	if (!GO_DURATION.test(text)) return undefined;
	let ms = 0;
	for (const [, amount, unit] of text.matchAll(GO_PART)) ms += Number(amount) * GO_UNITS[unit];
	return sane(ms);
}

/** A whole number of at least 0 (a limit: at least 1), or undefined. */
function count(value: string | undefined, least: number): number | undefined {
	const text = value?.trim() ?? '';
	if (!/^\d+$/.test(text)) return undefined;
	const number = Number(text);
	return number >= least && Number.isSafeInteger(number) ? number : undefined;
}

function limitReport(headers: Record<string, string>, of: 'requests' | 'tokens') {
	const remaining = count(headers[`x-ratelimit-remaining-${of}`], 0);
	if (remaining === undefined) return undefined;
	const limit = count(headers[`x-ratelimit-limit-${of}`], 1);
	const resetMs = parseResetDuration(headers[`x-ratelimit-reset-${of}`]);
	return {
		remaining,
		...(limit === undefined ? {} : { limit }),
		...(resetMs === undefined ? {} : { resetMs }),
	};
}

/** The `x-ratelimit-*-requests` and `-tokens` trios of a reply (headers named in lower case). */
export function rateLimitHeaders(headers: Record<string, string>): RateLimitHeaders {
	const requests = limitReport(headers, 'requests');
	const tokens = limitReport(headers, 'tokens');
	return { ...(requests ? { requests } : {}), ...(tokens ? { tokens } : {}) };
}

/**
 * OpenRouter's `x-ratelimit-reset`: the instant the limit resets, in epoch milliseconds (epoch seconds are
 * taken too), as the ms left until then; undefined when it is no instant within a day.
 */
export function resetInstantMs(value: string | undefined, now: number): number | undefined {
	const text = value?.trim() ?? '';
	if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
	const number = Number(text);
	const instant = number >= 1e12 ? number : number >= 1e9 ? number * 1000 : NaN;
	// An instant already past (clocks differ by a little) means now.
	return sane(Math.max(0, instant - now));
}
