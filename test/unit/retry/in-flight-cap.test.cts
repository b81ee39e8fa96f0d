/**
 * A cap on requests in flight a 429 named: the key comes down to it, and one fewer for each 429 to a request sent
 * after that (others share the key), then grows back slowly.
 */
import { ServiceError } from '../../../engine/failures/errors';
import { Run } from '../../../engine/run/run';

const capped = (cap: number) =>
	new ServiceError(
		429,
		`Too many requests in flight for token sk-abc...xyz: at most ${cap} in-flight requests are allowed`,
		'new_api_error',
		undefined,
		'json',
	);

/** One attempt through `run` that fails with `error` (or succeeds without), as the key's slot sees it. */
async function attempt(run: Run, error?: Error) {
	const signal = new AbortController().signal;
	await run
		.send(
			async () => {
				if (error) throw error;
				return 'ok';
			},
			{ signal, first: true, tokensOf: () => undefined },
		)
		.catch(() => undefined);
}

test('the first burst comes down to the cap once; each 429 to a request sent after that takes one slot away', async () => {
	const run = new Run({ concurrency: 0, tokenBudget: 0 });
	expect(run.key.inFlightLimit).toBe(Infinity);
	// A burst sent at once: all answered 429 naming 8.
	const signal = new AbortController().signal;
	const leases = await Promise.all(Array.from({ length: 5 }, () => run.key.acquire({ signal })));
	for (const lease of leases) {
		lease.learn({ cap: 8 }, capped(8));
		lease.release(false);
	}
	expect(run.key.inFlightLimit).toBe(8);
	// Told again by requests sent at 8: others share the key, each 429 one request beyond the cap.
	await attempt(run, capped(8));
	await attempt(run, capped(8));
	expect(run.key.inFlightLimit).toBe(6);
	// Answers that come back fine grow it again, by one slot per 8 round trips (about 6 x 8 answers at 6), up to the cap.
	for (let answer = 0; answer < 40; answer++) await attempt(run);
	expect(run.key.inFlightLimit).toBe(6);
	for (let answer = 0; answer < 20; answer++) await attempt(run);
	expect(run.key.inFlightLimit).toBe(7);
	for (let answer = 0; answer < 100; answer++) await attempt(run);
	expect(run.key.inFlightLimit).toBe(8);
});

test('runs on the same key share it; another key or Base URL does not', async () => {
	const key = { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-in-flight-cap-test' };
	const first = new Run({ concurrency: 4, tokenBudget: 0, key });
	await attempt(first, capped(3));
	expect(new Run({ concurrency: 0, tokenBudget: 0, key }).key.inFlightLimit).toBe(3);
	expect(
		new Run({ concurrency: 0, tokenBudget: 0, key: { ...key, apiKey: 'sk-other' } }).key
			.inFlightLimit,
	).toBe(Infinity);
	expect(
		new Run({ concurrency: 0, tokenBudget: 0, key: { ...key, baseUrl: 'http://127.0.0.1:2/v1' } })
			.key.inFlightLimit,
	).toBe(Infinity);
});
