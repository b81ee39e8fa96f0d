/** Every attempt's answer reaches Auto's limiter: an overload (429, 503) halves it, other failures do not. */
import { ServiceError } from '../../../engine/failures';
import { autoLimiter } from '../../../engine/concurrency/limiter';
import { Flow } from '../../../engine/retry/flow';
import { withRetries } from '../../../engine/retry/with-retries';

const policy = { maxRetries: 2, maxWaitMs: 60_000, maxRateLimitWaitMs: 60_000 };

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Runs one item whose first attempt fails with `failure`; the limit of an Auto limiter that started at 16. */
async function limitAfter(failure: ServiceError): Promise<number> {
	const limiter = autoLimiter({ start: 16, max: 64 });
	let calls = 0;
	const result = withRetries(
		async () => {
			if (calls++ === 0) throw failure;
			return 'ok';
		},
		policy,
		new Flow(limiter),
	);
	await jest.runAllTimersAsync();
	await expect(result).resolves.toBe('ok');
	expect(calls).toBe(2);
	return limiter.limit;
}

test.each([
	['a 429 rate limit with Retry-After', new ServiceError(429, 'Rate limit reached', 'requests', 'rate_limit_exceeded', 'json', 100)],
	['a 429 rate limit without Retry-After', new ServiceError(429, 'Too many requests', undefined, undefined, 'json')],
	['a 503', new ServiceError(503, 'Overloaded', 'server_error', undefined, 'json')],
])('after %s, Auto allows half as many requests in flight', async (_name, failure) => {
	// 16 halved to 8; the good answer after it grows the limit by a fraction of a slot only.
	expect(await limitAfter(failure)).toBe(8);
});

test.each([
	['a 500', new ServiceError(500, 'boom', 'server_error', undefined, 'json')],
	['a 502', new ServiceError(502, 'Bad Gateway', undefined, undefined, 'json')],
])('after %s (no overload), Auto keeps growing with the good answer', async (_name, failure) => {
	expect(await limitAfter(failure)).toBe(17);
});
