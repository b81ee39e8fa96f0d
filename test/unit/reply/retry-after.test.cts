/** Retry-After as the service sends it, read as the wait in milliseconds that the retries honour. */
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { parseRetryAfter, waitAsked } from '../../../engine/reply/retry-after';

const now = Date.parse('2026-11-24T10:00:00Z');

describe('parseRetryAfter', () => {
	test.each([
		['whole seconds', '2', 2000],
		['zero', '0', 0],
		['many seconds', '120', 120_000],
		['fractional seconds', '0.5', 500],
		['a fraction below a millisecond, rounded', '1.0004', 1000],
		['seconds with spaces around', ' 3 ', 3000],
		['an HTTP date 5 s ahead', 'Tue, 24 Nov 2026 10:00:05 GMT', 5000],
		['an HTTP date 90 s ahead', 'Tue, 24 Nov 2026 10:01:30 GMT', 90_000],
		['an HTTP date already past: no wait', 'Tue, 24 Nov 2026 09:59:00 GMT', 0],
	])('%s (%j) is %i ms', (_name, value, ms) => {
		expect(parseRetryAfter(value, now)).toBe(ms);
	});

	test.each([
		['no header', undefined],
		['an empty header', ''],
		['only spaces', '   '],
		['a word', 'soon'],
		['a number with a unit', '12abc'],
		['exponent notation', '1e3'],
	])('%s (%j) asks for no particular wait', (_name, value) => {
		expect(parseRetryAfter(value, now)).toBeUndefined();
	});
});

describe('a 429 carries the wait it asks for', () => {
	const limited = (retryAfter?: string) =>
		serviceErrorFrom({
			status: 429,
			headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
			text: JSON.stringify({
				error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
			}),
		});

	test.each([
		['2', 2000],
		['0.25', 250],
	])('Retry-After %j: retryAfterMs %i', (value, ms) => {
		const error = limited(value);
		expect(error.status).toBe(429);
		expect(error.retryAfterMs).toBe(ms);
	});

	test('without Retry-After, retryAfterMs is undefined (the retries choose their own backoff)', () => {
		expect(limited().retryAfterMs).toBeUndefined();
	});
});

describe('the wait a reply asks for, from the first sane signal', () => {
	test.each([
		['retry-after-ms before Retry-After', { 'retry-after-ms': '250', 'retry-after': '5' }, 250],
		['fractional retry-after-ms', { 'retry-after-ms': '137.6' }, 138],
		[
			'Retry-After when retry-after-ms is no number',
			{ 'retry-after-ms': 'soon', 'retry-after': '2' },
			2000,
		],
		[
			'Retry-After before a reset instant',
			{ 'retry-after': '1', 'x-ratelimit-reset': String(now + 9000) },
			1000,
		],
		[
			"OpenRouter's reset instant in epoch ms: waited until",
			{ 'x-ratelimit-reset': String(now + 4200) },
			4200,
		],
		['a reset instant in epoch seconds', { 'x-ratelimit-reset': String(now / 1000 + 3) }, 3000],
		['a reset instant just past: no wait', { 'x-ratelimit-reset': String(now - 40) }, 0],
		[
			"OpenAI's requests used up: their reset",
			{
				'x-ratelimit-remaining-requests': '0',
				'x-ratelimit-reset-requests': '1.5s',
				'x-ratelimit-remaining-tokens': '900',
				'x-ratelimit-reset-tokens': '6m0s',
			},
			1500,
		],
		[
			'both used up: the longer reset',
			{
				'x-ratelimit-remaining-requests': '0',
				'x-ratelimit-reset-requests': '120ms',
				'x-ratelimit-remaining-tokens': '0',
				'x-ratelimit-reset-tokens': '1m2s',
			},
			62_000,
		],
		[
			"LiteLLM's reset in whole seconds",
			{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '27' },
			27_000,
		],
		[
			'a Retry-After of more than a day is not believed: the reset',
			{
				'retry-after': '999999',
				'x-ratelimit-remaining-requests': '0',
				'x-ratelimit-reset-requests': '2s',
			},
			2000,
		],
	])('%s', (_name, headers: Record<string, string>, ms) => {
		expect(waitAsked(headers, now)).toBe(ms);
	});

	test.each([
		['nothing', {}],
		[
			'requests left: a reset is no wait',
			{ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '1s' },
		],
		[
			'a reset that is no duration',
			{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': 'later' },
		],
		['a reset instant that is a small number (no instant)', { 'x-ratelimit-reset': '30' }],
		['a reset instant two days ahead', { 'x-ratelimit-reset': String(now + 2 * 86_400_000) }],
		['a negative retry-after-ms', { 'retry-after-ms': '-5' }],
	])('%s: no particular wait', (_name, headers: Record<string, string>) => {
		expect(waitAsked(headers, now)).toBeUndefined();
	});
});
