/** Rate limits are a queue, not a failure: waits with jitter, bounded by time, never counted as retries. */
import {
	PausedNotSent,
	RateLimitWaitExceeded,
	ServiceError,
} from '../../../engine/failures/errors';
import { isRetryable } from '../../../engine/retry/policy';
import { rateLimitDelay } from '../../../engine/retry/rate-limit-wait';
import { Run } from '../../../engine/run/run';
import { retried } from '../../support/retries.cts';

const limited = (retryAfterMs?: number) =>
	new ServiceError(
		429,
		'Rate limit reached',
		'requests',
		'rate_limit_exceeded',
		'json',
		retryAfterMs,
	);
const policy = { maxRetries: 1, maxWaitMs: 60_000, maxRateLimitWaitMs: 10_000 };

/** An attempt that fails with `failures` in turn, then answers "ok"; counts its calls. */
function attempts(...failures: Error[]) {
	let calls = 0;
	const attempt = async () => {
		calls++;
		const failure = failures.shift();
		if (failure) throw failure;
		return 'ok';
	};
	return { attempt, calls: () => calls };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('jitter spreads a group of requests told the same Retry-After', () => {
	const waits = Array.from({ length: 20 }, (_, n) => rateLimitDelay(limited(200), 1, () => n / 20));
	expect(Math.min(...waits)).toBe(200);
	expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThanOrEqual(230);
	expect(new Set(waits).size).toBe(20);
});

test('rate-limit waits do not spend retries: ten 429s with Max Retries 1 still end with the reply', async () => {
	const { attempt, calls } = attempts(...Array.from({ length: 10 }, () => limited(100)));
	const result = retried(attempt, policy);
	await jest.runAllTimersAsync();
	await expect(result).resolves.toBe('ok');
	expect(calls()).toBe(11);
});

test('the time bound ends the waiting with an error that says how long and how often', async () => {
	const { attempt, calls } = attempts(...Array.from({ length: 100 }, () => limited(1000)));
	const result = retried(attempt, policy).catch((error: unknown) => error);
	await jest.runAllTimersAsync();
	const error = (await result) as RateLimitWaitExceeded;
	expect(error).toBeInstanceOf(RateLimitWaitExceeded);
	expect(error.told).toBe(calls());
	expect(error.waitedMs).toBeLessThanOrEqual(10_000);
	expect(error.waitedMs).toBeGreaterThanOrEqual(5_000);
});

test('Max Wait on Rate Limit 0 fails on the first 429', async () => {
	const { attempt, calls } = attempts(limited(100));
	const result = retried(attempt, { ...policy, maxRateLimitWaitMs: 0 }).catch(
		(error: unknown) => error,
	);
	await jest.runAllTimersAsync();
	expect(await result).toBeInstanceOf(ServiceError);
	expect(calls()).toBe(1);
});

test('quota and balance 429s are never retried', async () => {
	const quota = new ServiceError(
		429,
		'You exceeded your current quota',
		'insufficient_quota',
		'insufficient_quota',
		'json',
	);
	expect(isRetryable(quota)).toBe(false);
	const { attempt, calls } = attempts(quota);
	const result = retried(attempt, policy).catch((error: unknown) => error);
	await jest.runAllTimersAsync();
	expect(await result).toBe(quota);
	expect(calls()).toBe(1);
});

test('cancelling ends a rate-limit wait at once', async () => {
	jest.useRealTimers();
	const cancel = new AbortController();
	const { attempt } = attempts(limited(60_000));
	const started = Date.now();
	const result = retried(
		attempt,
		{ ...policy, maxRateLimitWaitMs: 600_000 },
		undefined,
		cancel.signal,
	).catch((error: unknown) => error);
	setTimeout(() => cancel.abort(), 50);
	await result;
	expect(Date.now() - started).toBeLessThan(1000);
});

test('after a shared pause, the requests that waited go on spread out, not at one instant', async () => {
	const run = new Run({ concurrency: 10, tokenBudget: 0 });
	run.key.learn({ pauseMs: 400 }, limited(400));
	const resumed: number[] = [];
	const started = Date.now();
	const runs = Array.from({ length: 10 }, () =>
		retried(async () => resumed.push(Date.now() - started), policy, run),
	);
	await jest.runAllTimersAsync();
	await Promise.all(runs);
	expect(Math.min(...resumed)).toBeGreaterThanOrEqual(400);
	expect(Math.max(...resumed) - Math.min(...resumed)).toBeGreaterThan(100);
});

/** OpenAI's 429 for one model: its words name the model the limit is for. */
const modelLimited = (model: string, retryAfterMs: number) =>
	new ServiceError(
		429,
		`Rate limit reached for ${model} in organization org-example on requests per min (RPM): Limit 3, Used 3, Requested 1.`,
		'requests',
		'rate_limit_exceeded',
		'json',
		retryAfterMs,
	);

test("a 429 that names its model pauses that model's requests on the key, not another model's", async () => {
	const run = new Run({ concurrency: 10, tokenBudget: 0 });
	const first = attempts(modelLimited('gpt-4o', 2_000));
	const told = retried(first.attempt, policy, run, undefined, 'gpt-4o');
	await jest.advanceTimersByTimeAsync(0);
	const started = Date.now();
	const times: Record<string, number> = {};
	const other = retried(
		async () => (times.other = Date.now() - started),
		policy,
		run,
		undefined,
		'gpt-4o-mini',
	);
	const same = retried(
		async () => (times.same = Date.now() - started),
		policy,
		run,
		undefined,
		'gpt-4o',
	);
	await jest.runAllTimersAsync();
	await Promise.all([told, other, same]);
	expect(times.other).toBeLessThan(100);
	expect(times.same).toBeGreaterThanOrEqual(2_000);
});

test('a 429 that names no model pauses every request on the key', async () => {
	const run = new Run({ concurrency: 10, tokenBudget: 0 });
	const told = retried(attempts(limited(2_000)).attempt, policy, run, undefined, 'gpt-4o');
	await jest.advanceTimersByTimeAsync(0);
	const started = Date.now();
	let other = 0;
	const waiting = retried(
		async () => (other = Date.now() - started),
		policy,
		run,
		undefined,
		'gpt-4o-mini',
	);
	await jest.runAllTimersAsync();
	await Promise.all([told, waiting]);
	expect(other).toBeGreaterThanOrEqual(2_000);
});

test("a pause longer than an item's own Max Wait on Rate Limit fails it at once, not sent, with the 429 that paused the key", async () => {
	const run = new Run({ concurrency: 10, tokenBudget: 0 });
	const told = retried(
		attempts(limited(30_000)).attempt,
		{ ...policy, maxRateLimitWaitMs: 60_000 },
		run,
	);
	await jest.advanceTimersByTimeAsync(0);
	const started = Date.now();
	const short = attempts();
	// Every timer is run (the fake clock moves on), so that a request that waited the pause out ends too,
	// 30 s later by the clock, and the assertions below say so at once.
	let endedAfterMs: number | undefined;
	const outcome = retried(short.attempt, { ...policy, maxRateLimitWaitMs: 5_000 }, run)
		.catch((error: unknown) => error)
		.finally(() => (endedAfterMs = Date.now() - started));
	await jest.runAllTimersAsync();
	await told;
	const failure = await outcome;
	expect(failure).toBeInstanceOf(PausedNotSent);
	expect(failure).toMatchObject({
		leftMs: 30_000,
		limitMs: 5_000,
		answeredAt: started,
		answer: { retryAfterMs: 30_000 },
	});
	expect(endedAfterMs).toBeLessThan(100);
	expect(short.calls()).toBe(0);
});
