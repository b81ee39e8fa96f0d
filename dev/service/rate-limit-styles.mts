/**
 * How each kind of gateway counts a key's limit and tells it (`RateLimit.style`), as real ones do:
 * - `local` (this service's own): a sliding window; every answer carries `x-ratelimit-*-requests` (the reset
 *   when the oldest request leaves the window); the 429 says Retry-After in fractional seconds (or whole ones);
 * - `retry-after-ms`: the same window; the 429 carries `retry-after-ms` (exact) beside `Retry-After` in whole
 *   seconds rounded up, as the openai and Anthropic SDKs meet it; no x-ratelimit headers;
 * - `openai`: a bucket of `requests` that refills over the window; every answer carries the headers, the reset
 *   a Go duration until the bucket is full again; the 429 has no Retry-After;
 * - `litellm`: a fixed window; the headers on every answer with the reset in whole seconds; no Retry-After;
 * - `openrouter`: a fixed window; only the 429 says anything: `X-RateLimit-Limit`, `-Remaining` 0 and
 *   `X-RateLimit-Reset`, the instant the window ends in epoch milliseconds;
 * - `new-api`: a sliding window that counts every request, refused ones too ("包括失败次数"), and a cap on
 *   requests in flight, each refused with its own words (`type` `new_api_error`, no Retry-After, no headers).
 *   The window's length is written in minutes as new-api does, with decimals for a window of seconds
 *   (`0.05分钟内`: 3 s).
 */
import { maskKey } from './auth.mts';
import type { LimitStyle } from './config.mts';
import { ApiError } from './errors.mts';
import {
	askedWait,
	type LimitReached,
	type LimitState,
	rateLimited,
	rateLimitHeaders,
} from './rate-limit-wire.mts';
import type { WindowKind } from './rate-limit-windows.mts';

export interface Style {
	window: WindowKind;
	/** A refused request counts against the window too. */
	countsRefused: boolean;
	/** The headers of every answer of the key. */
	headers(state: LimitState): Record<string, string>;
	/** The 429 for a request beyond `reached`; the client may come back in `waitMs`. */
	refusal(key: string, state: LimitState, reached: LimitReached, waitMs: number): ApiError;
}

const none = () => ({});
const wholeSeconds = (ms: number) => String(Math.ceil(ms / 1000));
/** new-api ends its own messages with the request's id. */
const requestId = () => ` (request id: ${Date.now()}${Math.floor(Math.random() * 1e6)})`;

const local: Style = {
	window: 'sliding',
	countsRefused: false,
	headers: (state) => rateLimitHeaders(state),
	refusal: (key, state, reached, waitMs) =>
		rateLimited(key, state, reached, waitMs, {
			'Retry-After': String(askedWait(state.limit, waitMs) / 1000),
			...rateLimitHeaders(state),
		}),
};

export const STYLES: Record<LimitStyle, Style> = {
	local,
	'retry-after-ms': {
		window: 'sliding',
		countsRefused: false,
		headers: none,
		refusal: (key, state, reached, waitMs) =>
			rateLimited(key, state, reached, waitMs, {
				'retry-after-ms': String(askedWait(state.limit, waitMs)),
				'Retry-After': wholeSeconds(waitMs),
			}),
	},
	openai: {
		window: 'bucket',
		countsRefused: false,
		headers: (state) => rateLimitHeaders(state),
		refusal: (key, state, reached, waitMs) =>
			rateLimited(key, state, reached, waitMs, rateLimitHeaders(state)),
	},
	litellm: {
		window: 'fixed',
		countsRefused: false,
		headers: (state) => rateLimitHeaders(state, wholeSeconds),
		refusal: (_key, state, reached) =>
			new ApiError({
				status: 429,
				message: `LiteLLM Rate Limit Handler for rate limit type = key. Crossed TPM / RPM / Max Parallel Request Limit. current rpm: ${state.used}, rpm limit: ${state.limit.requests}, current max_parallel_requests: ${state.inFlight}, max_parallel_requests: ${state.limit.inFlight ?? 'None'} (${reached})`,
				type: 'None',
				code: '429',
				headers: rateLimitHeaders(state, wholeSeconds),
			}),
	},
	openrouter: {
		window: 'fixed',
		countsRefused: false,
		headers: none,
		refusal: (_key, state) =>
			new ApiError({
				status: 429,
				message: 'Rate limit exceeded: limit_rpm/echo-1/local',
				type: 'rate_limit_exceeded',
				code: '429',
				headers: {
					'X-RateLimit-Limit': String(state.limit.requests),
					'X-RateLimit-Remaining': '0',
					'X-RateLimit-Reset': String(Math.ceil(state.now + state.resetMs)),
				},
			}),
	},
	'new-api': {
		window: 'sliding',
		countsRefused: true,
		headers: none,
		refusal: (key, { limit }, reached) => {
			const minutes = Number((limit.windowSeconds / 60).toFixed(4));
			const message =
				reached === 'window'
					? `您已达到总请求数限制：${minutes}分钟内最多请求${limit.requests}次，包括失败次数，请检查您的请求是否正确`
					: `Too many requests in flight for token ${maskKey(key)}: at most ${limit.inFlight} in-flight requests are allowed`;
			return new ApiError({
				status: 429,
				message: message + requestId(),
				type: 'new_api_error',
				code: null,
			});
		},
	},
};
