/** Many executions, one key: a rate limit is a queue, not a failure (four executions at once against a limited key). */
import type { LocalService } from '../support/service.cts';
import { keys, startService } from '../support/service.cts';
import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';

/** The limited key at 100 requests a second and 8 in flight, so that 800 items take about 8 s. */
const REQUESTS_PER_SECOND = 100;
let service: LocalService;

beforeAll(async () => {
	service = await startService({
		args: ['--rate-limit', `limited=${REQUESTS_PER_SECOND}/s,8`, '--latency-ms', '20'],
	});
});
afterAll(async () => await service.stop());

test('four executions of 200 items at once on one key: every reply, in order, pairedItem right, 429s absorbed and few', async () => {
	await service.clearRequests();
	const started = Date.now();
	const runs = await Promise.all(
		[0, 1, 2, 3].map(
			async (execution) =>
				await engineWith(keys.limited, service.baseUrl).runNode({
					type: NODE_TYPE,
					parameters: simpleParameters('={{ "run ' + execution + ' item " + $json.n }}', 'echo-1'),
					items: Array.from({ length: 200 }, (_, n) => ({ json: { n } })),
				}),
		),
	);
	const elapsed = (Date.now() - started) / 1000;
	runs.forEach(({ error, outputs }, execution) => {
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			Array.from({ length: 200 }, (_, n) => `run ${execution} item ${n}`),
		);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 200 }, (_, item) => ({ item })),
		);
	});
	const { limited } = await service.traffic();
	expect(limited.admitted).toBe(800);
	// The limit was met (there were 429s to absorb), and each execution's Auto backed off: fewer than two 429s
	// per item (about one measured on a 2-core machine; about eight when Auto does not back off).
	expect(limited.rejected).toBeGreaterThan(0);
	expect(limited.rejected).toBeLessThan(2 * 800);
	console.log(
		`4 x 200 items on one key at ${REQUESTS_PER_SECOND}/s and 8 in flight: ${elapsed.toFixed(1)} s (ideal ${800 / REQUESTS_PER_SECOND} s), ${limited.rejected} 429s absorbed`,
	);
}, 120_000);
