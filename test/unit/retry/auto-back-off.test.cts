/** Every attempt's answer reaches Auto's limiter: an overload (429, 503) halves it, other failures do not. */
import { ServiceError } from '../../../engine/failures/errors';
import { AUTO } from '../../../engine/concurrency/limiter';
import { Run } from '../../../engine/run/run';
import { retried } from '../../support/retries.cts';

const policy = { maxRetries: 2, maxWaitMs: 60_000, maxRateLimitWaitMs: 60_000 };

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Runs one item whose first attempt fails with `failure` in a run at Auto; its limit afterwards. */
async function limitAfter(failure: ServiceError): Promise<number> {
	const run = new Run({ concurrency: 0, tokenBudget: 0 });
	let calls = 0;
	const result = retried(
		async () => {
			if (calls++ === 0) throw failure;
			return 'ok';
		},
		policy,
		run,
	);
	await jest.runAllTimersAsync();
	await expect(result).resolves.toBe('ok');
	expect(calls).toBe(2);
	return run.limiter.limit;
}

test.each([
	[
		'a 429 rate limit with Retry-After',
		new ServiceError(429, 'Rate limit reached', 'requests', 'rate_limit_exceeded', 'json', 100),
	],
	[
		'a 429 rate limit without Retry-After',
		new ServiceError(429, 'Too many requests', undefined, undefined, 'json'),
	],
	['a 503', new ServiceError(503, 'Overloaded', 'server_error', undefined, 'json')],
])('after %s, Auto allows half as many requests in flight', async (_name, failure) => {
	// Auto's start halved; the good answer after it grows the limit by a fraction of a slot only.
	expect(await limitAfter(failure)).toBe(AUTO.start / 2);
});

test.each([
	['a 500', new ServiceError(500, 'boom', 'server_error', undefined, 'json')],
	['a 502', new ServiceError(502, 'Bad Gateway', undefined, undefined, 'json')],
])('after %s (no overload), Auto keeps growing with the good answer', async (_name, failure) => {
	expect(await limitAfter(failure)).toBe(AUTO.start + 1);
});
