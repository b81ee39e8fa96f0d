import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

async function run(options: INodeParameters, abortAfterMs?: number, count = 1) {
	const controller = new AbortController();
	if (abortAfterMs !== undefined) setTimeout(() => controller.abort(), abortAfterMs);
	const started = Date.now();
	const result = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello there', 'echo-1', { options }),
		items: jsonItems(...Array.from({ length: count }, () => ({}))),
		settings: { onError: 'continueRegularOutput' },
		signal: controller.signal,
	});
	return { ...result, elapsed: Date.now() - started };
}

describe('timeouts', () => {
	test('a reply slower than Timeout fails promptly, once, with the timeout and how to raise it', async () => {
		const { outputs, elapsed } = await run({ ...knobs({ slow_ms: 3000 }).options, timeout: 500 });
		const json = outputs[0][0].json;
		expect(json.error).toMatch(
			/^The service at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions did not answer within the Timeout of 500 ms \(item 0\)$/,
		);
		expect((json.error_details as IDataObject).description).toMatch(
			/^Raise Options > Timeout \(Ms\) above 500 for long answers\. A request that timed out is not sent again unless Options > Retry Timeouts is on/,
		);
		// Max Retries is 3 by default: a timeout is still sent once.
		expect(await service().requests()).toHaveLength(1);
		expect(elapsed).toBeLessThan(2500);
	});

	test('with Retry Timeouts on, a timeout is sent again up to Max Retries', async () => {
		const { outputs } = await run({
			...knobs({ slow_ms: 1500 }).options,
			timeout: 300,
			retryTimeouts: true,
			maxRetries: 1,
		});
		expect(outputs[0][0].json.error).toMatch(
			/did not answer within the Timeout of 300 ms, after 2 attempts \(item 0\)$/,
		);
		// The description does not say a timeout is not sent again: this one was.
		expect((outputs[0][0].json.error_details as { description: string }).description).toMatch(
			/^Raise Options > Timeout \(Ms\) above 300 for long answers\. Each attempt waited that long \(Options > Retry Timeouts is on\)\./,
		);
		expect(await service().requests()).toHaveLength(2);
	});

	test('a long Timeout has no hidden cap: a slow reply within it succeeds', async () => {
		const { outputs } = await run({ ...knobs({ slow_ms: 1500 }).options, timeout: 15 * 60 * 1000 });
		expect(outputs[0][0].json.content).toBe('Hello there');
	});

	test('a stream that keeps sending for longer than Timeout is read to its end: Timeout counts from the last bytes', async () => {
		// Ten words, one chunk each, 150 ms apart: about 1.5 s of stream, three times the Timeout.
		const text = 'one two three four five six seven eight nine ten';
		const { outputs } = await run({
			...knobs({ text, delay_ms: 150 }).options,
			stream: true,
			timeout: 500,
		});
		expect(outputs[0][0].json.error).toBeUndefined();
		expect(outputs[0][0].json.content).toBe(text);
	});

	test('a stream that receives nothing for Timeout is ended, and is not sent again even with Retry Timeouts', async () => {
		const { outputs, elapsed } = await run({
			...knobs({ stall_body_ms: 8000 }).options,
			stream: true,
			timeout: 500,
			retryTimeouts: true,
		});
		const json = outputs[0][0].json;
		expect(json.error).toMatch(
			/^The stream stopped: nothing more came within the Timeout of 500 ms, after \d+ characters of the reply \(item 0\)$/,
		);
		// The service sent the first chunk (the role, no text yet) before it fell silent.
		expect((json.error_details as IDataObject).partial_content).toBe('');
		expect(await service().requests()).toHaveLength(1);
		expect(elapsed).toBeLessThan(3000);
	});
});

describe('cancelling the execution', () => {
	test.each([
		['a request waiting for headers', { ...knobs({ stall_headers_ms: 10000 }).options }],
		[
			'a stream waiting for its next bytes',
			{ ...knobs({ stall_body_ms: 10000 }).options, stream: true },
		],
		[
			'a wait between retries',
			{
				...knobs({ fail_first: { id: 'cancel-wait', count: 5, status: 429, retry_after: '20' } })
					.options,
				maxRetryWait: 120000,
			},
		],
	])('ends %s within a second and outputs nothing', async (_name, options) => {
		const { outputs, status, elapsed } = await run(options, 400);
		expect(status).toBe('canceled');
		expect(elapsed).toBeLessThan(1400);
		expect(outputs.flat()).toEqual([]);
	});

	test('ends a batch at Auto within a second: the requests in flight and the items not yet started', async () => {
		const { outputs, status, elapsed } = await run(
			knobs({ stall_headers_ms: 10000 }).options,
			400,
			1000,
		);
		expect(status).toBe('canceled');
		expect(elapsed).toBeLessThan(1400);
		expect(outputs.flat()).toEqual([]);
		// 64 requests left (Auto's start); the other items were never sent.
		expect((await service().requests()).length).toBeLessThanOrEqual(64);
	});
});
