import { LONGEST_RESET_MS, rateLimitHeaders, resetInstantMs } from './rate-limit-headers';

/** A `Retry-After` header in milliseconds: integer or fractional seconds, or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const text = value?.trim();
	if (!text) return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const believed = (ms: number | undefined) =>
	ms !== undefined && ms <= LONGEST_RESET_MS ? ms : undefined;

/** `retry-after-ms` (the openai and Anthropic SDKs read it first): milliseconds, fractional or not. */
function retryAfterMsHeader(value: string | undefined): number | undefined {
	const text = value?.trim() ?? '';
	return /^\d+(\.\d+)?$/.test(text) ? Math.round(Number(text)) : undefined;
}

/**
 * How long a reply asks to wait before another request, in ms, from the first sane signal: `retry-after-ms`,
 * then `Retry-After` (seconds or an HTTP date), then OpenRouter's reset instant (`x-ratelimit-reset`, waited
 * until, not retried before), then the reset of a limit the reply says is used up (`x-ratelimit-remaining-*`
 * 0: its `x-ratelimit-reset-*`, the longer of requests and tokens).
 */
export function waitAsked(headers: Record<string, string>, now = Date.now()): number | undefined {
	const asked =
		believed(retryAfterMsHeader(headers['retry-after-ms'])) ??
		believed(parseRetryAfter(headers['retry-after'], now)) ??
		resetInstantMs(headers['x-ratelimit-reset'], now);
	if (asked !== undefined) return asked;
	const { requests, tokens } = rateLimitHeaders(headers);
	const resets = [requests, tokens]
		.filter((report) => report?.remaining === 0 && report.resetMs !== undefined)
		.map((report) => report!.resetMs!);
	return resets.length === 0 ? undefined : Math.max(...resets);
}
