/** Retry-After as the service sends it, read as the wait in milliseconds that the retries honour. */
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { parseRetryAfter } from '../../../engine/reply/retry-after';

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
