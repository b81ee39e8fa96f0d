import type { IDataObject } from 'n8n-workflow';

import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

/** Deterministic "random" latencies, so a failure can be replayed. */
function latencies(count: number, seed: number): number[] {
	let state = seed;
	return Array.from({ length: count }, () => {
		state = (state * 1103515245 + 12345) % 2 ** 31;
		return 20 + (state % 180);
	});
}

describe('Concurrency', () => {
	test('items run N at a time with random latency; output order and pairedItem follow the input', async () => {
		const delays = latencies(16, 7);
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', {
				options: {
					concurrency: 4,
					extraBody: '={{ JSON.stringify({ x_local: { slow_ms: $json.delay } }) }}',
				},
			}),
			items: delays.map((delay, n) => ({ json: { n, delay } })),
		});
		expect(outputs[0].map((item) => item.json.content)).toEqual(delays.map((_, n) => `item ${n}`));
		expect(outputs[0].map((item) => item.pairedItem)).toEqual(delays.map((_, item) => ({ item })));
		// The service had exactly N in flight at its busiest, never more.
		expect((await service().traffic()).default.maxInFlight).toBe(4);
	});

	test('a 429 with Retry-After holds back every request of the run, not only its own', async () => {
		const knob = (n: number): IDataObject =>
			n === 0
				? { fail_first: { id: 'gate', count: 1, status: 429, retry_after: '1' } }
				: { slow_ms: n < 3 ? 300 : 0 };
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', {
				options: { concurrency: 3, extraBody: '={{ JSON.stringify({ x_local: $json.knob }) }}' },
			}),
			items: [0, 1, 2, 3, 4].map((n) => ({ json: { n, knob: knob(n) } })),
		});
		expect(outputs[0].map((item) => item.json.content)).toEqual(
			[0, 1, 2, 3, 4].map((n) => `item ${n}`),
		);
		const requests = await service().requests();
		const prompt = (request: (typeof requests)[number]) =>
			((request.body as IDataObject).messages as IDataObject[])[0].content;
		const limited = requests.find((request) => prompt(request) === 'item 0')!.receivedAt;
		// Items 3 and 4 start after items 1 and 2 finish (300 ms), while the 429's pause (1 s) holds.
		for (const later of requests.filter((request) =>
			['item 3', 'item 4'].includes(prompt(request) as string),
		)) {
			expect(later.receivedAt - limited).toBeGreaterThanOrEqual(950);
		}
	});

	test('without continue on fail, no new request starts once one has failed', async () => {
		// The key lists fault-402 (the model check before the batch passes it); the service answers 402.
		const { error } = await engineWith(keys.faults, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ "item " + $json.n }}', '={{ $json.model }}', {
				options: { concurrency: 2 },
			}),
			items: [0, 1, 2, 3, 4, 5].map((n) => ({
				json: { n, model: n === 1 ? 'fault-402' : 'echo-1' },
			})),
		});
		expect(error?.message).toBe('The account behind this API key has run out of balance (item 1)');
		const requests = await service().requests();
		expect(
			requests.filter((request) => request.path.endsWith('/chat/completions')).length,
		).toBeLessThan(6);
	});
});
