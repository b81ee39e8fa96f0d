import { getEventListeners } from 'node:events';

import type { Slot } from '../../../engine/concurrency/limiter';
import { autoLimiter, fixedLimiter, LimiterClosed } from '../../../engine/concurrency/limiter';

/** Takes `count` slots at once (they must be free now). */
async function take(limiter: ReturnType<typeof autoLimiter>, count: number): Promise<Slot[]> {
	return await Promise.all(Array.from({ length: count }, () => limiter.acquire()));
}

describe('Auto', () => {
	test('starts with 8 in flight and grows by one per good answer until the first overload', async () => {
		const limiter = autoLimiter({ start: 8, max: 32 });
		expect(limiter.limit).toBe(8);
		(await take(limiter, 8)).forEach((slot) => slot.release('ok'));
		expect(limiter.limit).toBe(16);
	});

	test('never grows past its cap', async () => {
		const limiter = autoLimiter({ start: 8, max: 10 });
		for (let round = 0; round < 5; round++)
			(await take(limiter, limiter.limit)).forEach((slot) => slot.release('ok'));
		expect(limiter.limit).toBe(10);
	});

	test('halves on an overload, once for the requests that were in flight together, then grows slowly', async () => {
		const limiter = autoLimiter({ start: 16, max: 32 });
		const slots = await take(limiter, 16);
		slots[0].release('overloaded');
		expect(limiter.limit).toBe(8);
		// The others were sent before the decrease: their 429s do not halve again.
		slots.slice(1, 6).forEach((slot) => slot.release('overloaded'));
		expect(limiter.limit).toBe(8);
		slots.slice(6).forEach((slot) => slot.release('ok'));
		// After an overload it grows by about one slot per round trip, not one per answer.
		expect(limiter.limit).toBe(9);
		const later = await limiter.acquire();
		later.release('overloaded');
		expect(limiter.limit).toBe(4);
	});

	test('never goes below one in flight', async () => {
		const limiter = autoLimiter({ start: 2, max: 8 });
		for (let round = 0; round < 4; round++) (await limiter.acquire()).release('overloaded');
		expect(limiter.limit).toBe(1);
	});

	test('a failure that is not an overload changes nothing', async () => {
		const limiter = autoLimiter({ start: 8, max: 32 });
		(await limiter.acquire()).release('failed');
		expect(limiter.limit).toBe(8);
	});
});

describe('slots', () => {
	test('fixed: exactly the count in flight; waiters are served first come, first served', async () => {
		const limiter = fixedLimiter(2);
		const [first, second] = await take(limiter, 2);
		const served: number[] = [];
		const waiting = [3, 4, 5].map((n) => limiter.acquire().then((slot) => (served.push(n), slot)));
		await Promise.resolve();
		expect(served).toEqual([]);
		first.release('ok');
		const third = await waiting[0];
		expect(served).toEqual([3]);
		second.release('ok');
		third.release('ok');
		await Promise.all(waiting.slice(1));
		expect(served).toEqual([3, 4, 5]);
	});

	test('a closed limiter refuses waiting and later requests', async () => {
		const limiter = fixedLimiter(1);
		await limiter.acquire();
		const waiting = limiter.acquire();
		limiter.close();
		await expect(waiting).rejects.toBeInstanceOf(LimiterClosed);
		await expect(limiter.acquire()).rejects.toBeInstanceOf(LimiterClosed);
	});

	test('a cancelled execution stops waiting at once', async () => {
		const limiter = fixedLimiter(1);
		await limiter.acquire();
		const cancel = new AbortController();
		const waiting = limiter.acquire(cancel.signal);
		cancel.abort(new Error('cancelled'));
		await expect(waiting).rejects.toThrow('cancelled');
	});

	test('a wait that ends leaves no listener on the signal (it would keep the request in memory)', async () => {
		const limiter = fixedLimiter(1);
		const first = await limiter.acquire();
		const run = new AbortController();
		const granted = limiter.acquire(run.signal);
		const refused = limiter.acquire(run.signal);
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(2);
		first.release('ok');
		await granted;
		limiter.close();
		await expect(refused).rejects.toBeInstanceOf(LimiterClosed);
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
	});
});
