/** The x-ratelimit-* headers of OpenAI and LiteLLM, read as the pacing reads them; only sane values count. */
import { parseResetDuration, rateLimitHeaders } from '../../../engine/reply/rate-limit-headers';

test.each([
	['12ms', 12],
	['1s', 1000],
	['1.5s', 1500],
	['6m0s', 360_000],
	['1m26.4s', 86_400],
	['1h2m', 3_720_000],
	['250us', 0],
	['27', 27_000],
	['0.5', 500],
])('the reset %j is %i ms', (value, ms) => {
	expect(parseResetDuration(value)).toBe(ms);
});

test.each(['', 'soon', '-1s', '1x', '25h', '1e3', 's'])('the reset %j is not believed', (value) => {
	expect(parseResetDuration(value)).toBeUndefined();
});

test('requests and tokens, each with its limit, what is left and its reset', () => {
	expect(
		rateLimitHeaders({
			'x-ratelimit-limit-requests': '60',
			'x-ratelimit-remaining-requests': '59',
			'x-ratelimit-reset-requests': '1s',
			'x-ratelimit-limit-tokens': '150000',
			'x-ratelimit-remaining-tokens': '149984',
			'x-ratelimit-reset-tokens': '6ms',
		}),
	).toEqual({
		requests: { limit: 60, remaining: 59, resetMs: 1000 },
		tokens: { limit: 150_000, remaining: 149_984, resetMs: 6 },
	});
});

test('a limit without what is left, or with a value that is no count, says nothing', () => {
	expect(rateLimitHeaders({ 'x-ratelimit-limit-requests': '60' })).toEqual({});
	expect(rateLimitHeaders({ 'x-ratelimit-remaining-requests': '-1' })).toEqual({});
	expect(
		rateLimitHeaders({ 'x-ratelimit-remaining-requests': '4', 'x-ratelimit-limit-requests': '0' }),
	).toEqual({ requests: { remaining: 4 } });
});
