/**
 * On Error: Stop Workflow in a batch: the first failure stops the spending. No request starts after it, the
 * requests in flight are cancelled (the run does not wait for their answers, and the service sees each
 * closed), and the error says how many were sent and cancelled.
 */
import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';
import type { EndedBy, RecordedRequest } from '../support/service.cts';
import type { LocalService } from '../../dev/service-client/local-service.cts';
import { startService } from '../../dev/service-client/local-service.cts';
import { AUTO } from '../../engine/concurrency/limiter';

const service = useLocalService();

/** Answers that would take this long: a run that waited for them could not end sooner. */
const SLOW_MS = 8000;

async function run() {
	await service().clearRequests();
	// Item 20 fails at once with a 500 (not retried: Max Retries 0); every other answer would take SLOW_MS.
	const knobs = {
		failing: { x_local: { fail_first: { id: `stop-${Date.now()}`, count: 1, status: 500 } } },
		slow: { x_local: { slow_ms: SLOW_MS } },
	};
	const result = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', {
			options: {
				maxRetries: 0,
				extraBody: '={{ JSON.stringify($json.knobs) }}',
			},
		}),
		items: Array.from({ length: 200 }, (_, n) => ({
			json: { n, knobs: n === 20 ? knobs.failing : knobs.slow },
		})),
	});
	// What the service had seen when the run returned.
	return { ...result, requests: await service().requests() };
}

/** How many of `requests` ended each way (answered, cancelled by the client, cut by the service, or not yet). */
function endings(requests: RecordedRequest[]): Partial<Record<EndedBy | 'in flight', number>> {
	const counts: Partial<Record<EndedBy | 'in flight', number>> = {};
	for (const request of requests) {
		const way = request.ended?.by ?? 'in flight';
		counts[way] = (counts[way] ?? 0) + 1;
	}
	return counts;
}

test('at Concurrency Auto, an item the service rejects stops the batch: nothing more starts, the requests in flight are cancelled', async () => {
	const { error, requests } = await run();
	expect(error?.message).toMatch(/^The service failed while answering \(500\)/);
	const note =
		/The node stopped at this failure \(On Error: Stop Workflow\): (\d+) requests were sent, (\d+) of them still in flight and cancelled, and no other request started\.$/.exec(
			error?.description ?? '',
		);
	expect(note).not.toBeNull();
	const [sent, cancelled] = [Number(note![1]), Number(note![2])];
	expect(sent).toBeLessThan(200);
	expect(cancelled).toBe(sent - 1);
	// The run did not wait for the others' answers: when it returned, the service had answered the rejected
	// request alone (each other answer takes SLOW_MS).
	expect(endings(requests).answer).toBe(1);
	// The service saw the cancels: every request the node counted as sent reached it, and each but the
	// rejected one was closed by the client before its answer.
	const ended = await service().endedRequests(SLOW_MS + 5000);
	expect(endings(ended)).toEqual({ answer: 1, client: cancelled });
}, 30_000);

describe('a failure stops the batch before its slot passes to the next item', () => {
	// A service that answers (here: refuses) in 300 ms, as a remote one does: the next item is waiting for the
	// slot when the failure comes back.
	let remote: LocalService;
	beforeAll(async () => {
		remote = await startService({ args: ['--latency-ms', '300'] });
	});
	afterAll(async () => await remote.stop());

	test.each([
		['Concurrency 1: only the failed request', 1, 1],
		['Auto, every item failing: only the first round', 0, AUTO.start],
	])('%s', async (_name, concurrency, expected) => {
		await remote.clearRequests();
		const { error } = await engineWith(keys.default, remote.baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ "item " + $json.n }}', 'no-such-model', {
				options: { concurrency },
			}),
			items: Array.from({ length: 200 }, (_, n) => ({ json: { n } })),
		});
		expect(error?.message).toMatch(/^Model "no-such-model" does not exist on this service/);
		// A request cancelled right after it was sent may reach the service after the run ended (later on a busy
		// machine): wait until the expected count arrived (5 s at most), then a moment for any more.
		for (const until = Date.now() + 5_000; Date.now() < until; ) {
			if ((await remote.requests()).length >= expected) break;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(await remote.requests()).toHaveLength(expected);
	});
});

test('with Continue, a rejected item stops nothing: every other item gets its reply', async () => {
	// The same batch, answered quickly: the other 199 items are all sent.
	await service().clearRequests();
	const result = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(
			'={{ "item " + $json.n }}',
			'={{ $json.n === 20 ? "no-such-model" : "echo-1" }}',
		),
		items: Array.from({ length: 200 }, (_, n) => ({ json: { n } })),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(result.outputs[0]).toHaveLength(200);
	expect(result.outputs[0][20].json.error).toMatch(
		/^Model "no-such-model" does not exist on this service/,
	);
	expect(result.outputs[0].filter((item) => item.json.error === undefined)).toHaveLength(199);
	expect(await service().requests()).toHaveLength(200);
});
