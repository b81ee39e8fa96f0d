/** Concurrency Auto (the default), fixed numbers, early sending in the Continue modes, and the checked-first Stop Workflow. */
import type { INodeParameters } from 'n8n-workflow';

import { AUTO } from '../../engine/concurrency/limiter';
import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { useEndedRuns } from '../support/ended-runs.cts';
import type { RecordedRequest } from '../support/service.cts';
import { keys, startService, useLocalService } from '../support/service.cts';

const service = useLocalService();
const ended = useEndedRuns();

const prompt = (request: RecordedRequest) =>
	((request.body as { messages: Array<{ content: string }> }).messages.at(-1)?.content ?? '').split(
		' read at ',
	)[0];

/** The most of `requests` the service had in flight at once, each from its arrival to its end (a count of overlaps). */
function mostAtOnce(requests: RecordedRequest[]): number {
	const changes = requests
		.flatMap(
			(request): Array<[number, number]> => [
				[request.receivedAt, 1],
				[request.ended?.at ?? Infinity, -1],
			],
		)
		.sort(([a, up], [b, down]) => a - b || up - down);
	let inFlight = 0;
	let most = 0;
	for (const [, change] of changes) most = Math.max(most, (inFlight += change));
	return most;
}

async function run(
	count: number,
	options: INodeParameters,
	onError?: 'continueRegularOutput',
	extra: INodeParameters = {},
	apiKey = keys.default,
) {
	await service().clearRequests();
	const result = await ended(
		async (signal) =>
			await engineWith(apiKey, service().baseUrl).runNode({
				type: NODE_TYPE,
				parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', { options, ...extra }),
				items: Array.from({ length: count }, (_, n) => ({ json: { n } })),
				...(onError ? { settings: { onError } } : {}),
				signal,
			}),
	);
	return { ...result, requests: await service().requests(), traffic: await service().traffic() };
}

const slow = (ms: number) => JSON.stringify({ x_local: { slow_ms: ms } });

describe('Concurrency Auto (the default)', () => {
	// Each answer takes 1 s: several rounds (3.4 to 5.2 s on a loaded 2-core machine), so a timeout of its own.
	test('keeps several requests in flight from the start, grows, and keeps the input order and pairedItem', async () => {
		const count = AUTO.start * 4;
		const { outputs, traffic } = await run(count, { extraBody: slow(1000) });
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			Array.from({ length: count }, (_, n) => `item ${n}`),
		);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(
			Array.from({ length: count }, (_, item) => ({ item })),
		);
		// Several at once from the start: the service had AUTO.start in flight before the first answer left...
		const { timeline } = traffic.default;
		const firstAnswer = timeline.findIndex(
			(point, index) => index > 0 && point.inFlight < timeline[index - 1].inFlight,
		);
		expect(timeline[firstAnswer - 1].inFlight).toBe(AUTO.start);
		// ...more as answers come back fine, never more than the cap.
		expect(traffic.default.maxInFlight).toBeGreaterThan(AUTO.start);
		expect(traffic.default.maxInFlight).toBeLessThanOrEqual(AUTO.max);
	}, 30_000);

	test('a run on a key starts where Auto left off on it: at its cap after answers came fine, about half after an overload', async () => {
		// A service of its own: a key new to this process.
		const own = await startService();
		try {
			/** One execution of `count` items; how many were in flight when the first answer left. */
			const firstWave = async (count: number, extraBody: string) => {
				await own.clearRequests();
				const result = await engineWith(keys.default, own.baseUrl).runNode({
					type: NODE_TYPE,
					parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', {
						options: { extraBody },
					}),
					items: Array.from({ length: count }, (_, n) => ({ json: { n } })),
				});
				expect(result.outputs[0].map((item) => item.json.error)).toEqual(
					Array(count).fill(undefined),
				);
				const { timeline } = (await own.traffic()).default;
				const first = timeline.findIndex(
					(point, index) => index > 0 && point.inFlight < timeline[index - 1].inFlight,
				);
				return timeline[first - 1].inFlight;
			};
			expect(await firstWave(AUTO.start * 2, slow(300))).toBe(AUTO.start);
			// Every answer came back fine: Auto grew to its cap, and the next run starts there.
			expect(await firstWave(AUTO.max * 2, slow(300))).toBe(AUTO.max);
			// Every request meets one 503 first: Auto halves (once per round trip) and then grows by one slot per
			// round trip; the run after it starts there, about half of where it was.
			await firstWave(
				AUTO.max,
				'={{ JSON.stringify({ x_local: { fail_first: { id: "overload-" + $json.n, count: 1, status: 503 }, slow_ms: 300 } }) }}',
			);
			const afterOverload = await firstWave(AUTO.start * 2, slow(300));
			expect(afterOverload).toBeGreaterThanOrEqual(AUTO.max / 2);
			expect(afterOverload).toBeLessThan(AUTO.max / 2 + 8);
		} finally {
			await own.stop();
		}
	}, 60_000);

	test('items that meet a 429 with Retry-After wait what it asks, and every item still gets its reply', async () => {
		// Items 8-15 each meet one 429 with Retry-After 0.2 s (answered at once; the others take 50 ms), and
		// another for each request that comes back sooner (strict_retry_after): the batch absorbs them, none surfaces.
		const extraBody =
			'={{ JSON.stringify({ x_local: $json.n >= 8 && $json.n < 16 ? { fail_first: { id: "auto-" + $json.n, count: 1, status: 429, retry_after: "0.2", strict_retry_after: true } } : { slow_ms: 50 } }) }}';
		const { outputs, requests } = await run(40, { extraBody });
		expect(outputs[0].map((item) => item.json.error)).toEqual(Array(40).fill(undefined));
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			Array.from({ length: 40 }, (_, n) => `item ${n}`),
		);
		// Each of them was sent again once, after the wait: no 429 for coming back too soon.
		const sent = (n: number) =>
			requests.filter((request) => prompt(request) === `item ${n}`).length;
		expect(Array.from({ length: 40 }, (_, n) => sent(n))).toEqual(
			Array.from({ length: 40 }, (_, n) => (n >= 8 && n < 16 ? 2 : 1)),
		);
	});

	test('backs off after a burst of 503s (overloaded): fewer requests in flight than it started with', async () => {
		// The first AUTO.start items each meet one 503 (answered at once); every other request takes 400 ms.
		const count = AUTO.start * 3;
		const extraBody = `={{ JSON.stringify({ x_local: $json.n < ${AUTO.start} ? { fail_first: { id: "burst-" + $json.n, count: 1, status: 503 } } : { slow_ms: 400 } }) }}`;
		const { outputs } = await run(count, { extraBody });
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			Array.from({ length: count }, (_, n) => `item ${n}`),
		);
		const requests = await service().endedRequests();
		expect(requests).toHaveLength(count + AUTO.start);
		// The burst took every slot Auto had at the start, so every later item went out after a 503 came back:
		// half as many in flight as at the start, and a slow growth (a fraction of a slot per answer) after that.
		const later = requests.filter(
			(request) => Number(prompt(request).slice('item '.length)) >= AUTO.start,
		);
		expect(mostAtOnce(later)).toBeLessThan(AUTO.start);
	});

	test('a rate-limited batch meets few 429s: Auto comes down to what the key allows', async () => {
		// keys.limited: 20 requests a second, 8 in flight; each 429 carries Retry-After until a slot frees. Each
		// answer takes 400 ms, so that 8 in flight is the limit met.
		const count = AUTO.max;
		const { outputs, traffic } = await run(
			count,
			{ extraBody: slow(400) },
			undefined,
			{},
			keys.limited,
		);
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			Array.from({ length: count }, (_, n) => `item ${n}`),
		);
		const { limited } = traffic;
		expect(limited.admitted).toBe(count);
		// The limit was met, and Auto came down to it: fewer 429s than items (about 90 for these 128 on a
		// 2-core machine; about 590 when Auto does not back off).
		expect(limited.rejected).toBeGreaterThan(0);
		expect(limited.rejected).toBeLessThan(count);
	}, 60_000);

	test('Concurrency 1 still sends one item at a time', async () => {
		const { traffic } = await run(6, { concurrency: 1, extraBody: slow(60) });
		expect(traffic.default.maxInFlight).toBe(1);
	});

	test('a fixed number is exactly that many in flight', async () => {
		const { traffic } = await run(24, { concurrency: 4, extraBody: slow(120) });
		expect(traffic.default.maxInFlight).toBe(4);
	});
});

describe('when requests leave', () => {
	test('in the Continue modes the first request reaches the service before the last item is read', async () => {
		// Enough items that reading them takes several of the reading loop's 10 ms slices, on an idle machine too
		// (on a busy one the first request arrived after 4 to 12 items were read, of 150 and 400).
		const count = 200;
		const { outputs, requests } = await run(count, {}, 'continueRegularOutput', {
			prompt: '={{ "item " + $json.n + " read at " + Date.now() }}',
		});
		expect(outputs[0]).toHaveLength(count);
		const lastRead = Number((outputs[0][count - 1].json.content as string).split(' read at ')[1]);
		// Requests had reached the service (at least the first) when the last item was read.
		expect(requests.filter((request) => request.receivedAt < lastRead).length).toBeGreaterThan(0);
	});

	test('with Stop Workflow, invalid items stop the node before anything is sent, and every invalid item is named', async () => {
		const { error, requests } = await run(50, {
			temperature: '={{ $json.n >= 10 && $json.n < 15 ? 3 : 0.5 }}',
		});
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'5 items are invalid, so nothing was sent: items 10 to 14: Temperature: must be from 0 to 2, got 3',
		);
		expect(error?.description).toBe(
			'Items 10 to 14: Temperature: must be from 0 to 2, got 3. Use a value from 0 to 2, e.g. 0.7. Fix them and run again, or set On Error to Continue to send the valid items.',
		);
	});

	test('with Stop Workflow, the description names every invalid item, those with the same problem together', async () => {
		// Items 1 to 5 each give their own wrong value; items 150 and 199 share one.
		const { error, requests } = await run(200, {
			temperature:
				'={{ $json.n >= 1 && $json.n <= 5 ? 2 + $json.n : [150, 199].includes($json.n) ? -1 : 0.5 }}',
		});
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			'7 items are invalid, so nothing was sent: item 1: Temperature: must be from 0 to 2, got 3; item 2: Temperature: must be from 0 to 2, got 4; item 3: Temperature: must be from 0 to 2, got 5; and 3 more problems',
		);
		const named = [1, 2, 3, 4, 5].map(
			(n) => `Item ${n}: Temperature: must be from 0 to 2, got ${n + 2}.`,
		);
		for (const text of [...named, 'Items 150, 199: Temperature: must be from 0 to 2, got -1.']) {
			expect(error?.description).toContain(text);
		}
	});

	test('with Continue, the valid items are sent and the invalid ones become error items in place', async () => {
		const { outputs, requests } = await run(
			20,
			{ temperature: '={{ $json.n === 3 ? 3 : 0.5 }}' },
			'continueRegularOutput',
		);
		expect(requests).toHaveLength(19);
		expect(outputs[0][3].json.error).toBe('Temperature: must be from 0 to 2, got 3 (item 3)');
		expect(outputs[0][4].json.content).toBe('item 4');
	});
});

describe('once per execution, not once per request', () => {
	test('the credential is loaded once, however many items and retries (in n8n, each load reads the database)', async () => {
		await service().clearRequests();
		const engine = engineWith(keys.default, service().baseUrl);
		const extraBody =
			'={{ JSON.stringify({ x_local: $json.n === 2 ? { fail_first: { id: "once-" + $json.n, count: 1, status: 429, retry_after: "0" } } : {} }) }}';
		const { outputs } = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', {
				options: { extraBody },
			}),
			items: Array.from({ length: 20 }, (_, n) => ({ json: { n } })),
		});
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			Array.from({ length: 20 }, (_, n) => `item ${n}`),
		);
		expect(await service().requests()).toHaveLength(21);
		expect(engine.credentialReads('chatCompletionsApi')).toBe(1);
	});
});

describe("Auto's cap is also the most a fixed Concurrency may be", () => {
	test("a fixed Concurrency may be as high as Auto's cap: that many in flight", async () => {
		const { outputs, traffic } = await run(AUTO.max, {
			concurrency: AUTO.max,
			extraBody: slow(300),
		});
		expect(outputs[0]).toHaveLength(AUTO.max);
		expect(traffic.default.maxInFlight).toBe(AUTO.max);
	});

	test('a Concurrency above the cap is refused before anything is sent, with the range and the fix', async () => {
		const { error, requests } = await run(3, { concurrency: AUTO.max + 1 });
		expect(requests).toHaveLength(0);
		expect(error?.message).toBe(
			`Concurrency: must be a whole number from 0 to ${AUTO.max}, got ${AUTO.max + 1}`,
		);
		expect(error?.description).toBe('Use 0 for Auto, or a whole number such as 4.');
	});
});
