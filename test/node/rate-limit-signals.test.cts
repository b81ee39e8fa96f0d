/**
 * Rate limits as gateways really send them (the local service's styles), through n8n's engine at the node's
 * defaults: the node paces from the x-ratelimit headers before the 429, waits for OpenRouter's reset instant,
 * comes down to new-api's cap on requests in flight and waits out its counting window, and tells which it was.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runProbe } from './chat-model-probe.cts';
import { engineWith, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import type { LocalService } from '../support/service.cts';
import { keys, startService } from '../support/service.cts';

let service: LocalService | undefined;
afterEach(async () => {
	await service?.stop();
	service = undefined;
});

async function limitedService(limit: string, latencyMs = 20) {
	service = await startService({
		args: ['--rate-limit', `limited=${limit}`, '--latency-ms', String(latencyMs)],
	});
	return service;
}

/** `count` items at the node's defaults (or the options given) on the limited key; every reply in order. */
async function batch(local: LocalService, count: number, options: INodeParameters = {}) {
	await local.clearRequests();
	const result = await engineWith(keys.limited, local.baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', { options }),
		items: Array.from({ length: count }, (_, n) => ({ json: { n } })),
	});
	expect(result.error).toBeUndefined();
	expect(result.outputs[0].map((item) => item.json.content)).toEqual(
		Array.from({ length: count }, (_, n) => `item ${n}`),
	);
	return { ...result, traffic: (await local.traffic()).limited };
}

/** When each item's prompt reached the service (Unix ms), by prompt, in order. */
async function arrivalsPerItem(local: LocalService): Promise<number[][]> {
	const arrivals = new Map<string, number[]>();
	for (const request of await local.requests()) {
		const prompt = (request.body as { messages: Array<{ content: string }> }).messages[0].content;
		arrivals.set(prompt, [...(arrivals.get(prompt) ?? []), request.receivedAt]);
	}
	return [...arrivals.values()];
}

test("OpenAI's x-ratelimit headers: the node holds requests until the bucket refills instead of meeting 429s", async () => {
	// A bucket of 80 requests refilled over 4 s (20 a second): 120 items use it up and wait for its refill.
	const local = await limitedService('80/4s@openai');
	const { traffic } = await batch(local, 120);
	expect(traffic.admitted).toBe(120);
	// At most 5% of the requests were answered 429 (none measured; about 60 when the headers are not read).
	expect(traffic.rejected).toBeLessThanOrEqual(6);
}, 30_000);

test("LiteLLM's headers, the reset in whole seconds: the same, across its fixed windows", async () => {
	const local = await limitedService('70/2s@litellm');
	const { traffic } = await batch(local, 150);
	expect(traffic.admitted).toBe(150);
	expect(traffic.rejected).toBeLessThanOrEqual(7);
}, 30_000);

test("OpenRouter's reset instant is waited until: no item comes back within the window that refused it", async () => {
	const local = await limitedService('40/2s@openrouter');
	const { traffic } = await batch(local, 100);
	// Only the 429 says anything, so the window is met; but an item told the instant comes back after it: its
	// requests each fall in another of the service's fixed 2 s windows (an item may be refused again when the
	// next window fills before it comes).
	expect(traffic.rejected).toBeGreaterThan(0);
	const windows = (await arrivalsPerItem(local)).map((times) =>
		times.map((at) => Math.floor(at / 2000)),
	);
	expect(windows.filter((item) => new Set(item).size !== item.length)).toEqual([]);
}, 30_000);

test("new-api's cap on requests in flight: the node comes down to it at once, says so, and the key keeps it", async () => {
	const local = await limitedService('1000000/s,4@new-api', 100);
	const first = await batch(local, 40);
	// The first burst met the cap (40 sent at once, 4 admitted); after it, the node sent 4 at a time: at most
	// one 429 per item of that burst, and each item answered.
	expect(first.traffic.rejected).toBeGreaterThan(0);
	expect(first.traffic.rejected).toBeLessThanOrEqual(36 + 4);
	expect(first.hints.map((hint) => hint.message)).toEqual([
		'The service allows 4 requests in flight for this key: the node now sends 4 at a time.',
	]);
	// The next executions on the key in this process send 4 at a time from the start, at Auto and at a fixed
	// Concurrency alike: no 429.
	const second = await batch(local, 40);
	const fixed = await batch(local, 40, { concurrency: 10 });
	expect([second.traffic.rejected, fixed.traffic.rejected]).toEqual([0, 0]);
	expect(fixed.traffic.maxInFlight).toBe(4);
}, 30_000);

test("new-api's window that counts failed requests: waited out on its scale, in its words", async () => {
	// 20 requests per 3 s, refused ones counted: 30 items at Auto go at once, 10 are refused.
	const local = await limitedService('20/3s@new-api');
	const { traffic, hints } = await batch(local, 30);
	expect(traffic.admitted).toBe(30);
	// Only the first burst was refused: the retries waited for the window, none was refused again.
	expect(traffic.rejected).toBe(10);
	expect(Math.max(...(await arrivalsPerItem(local)).map((times) => times.length))).toBe(2);
	expect(hints.map((hint) => hint.message)).toEqual([
		expect.stringMatching(
			/^The key's limit of 20 requests per 3 s is used up \(failed requests count too\): waiting [34] s\.$/,
		),
	]);
}, 30_000);

/** Three items one after the other on the limited key, On Error: Continue, with the Max Wait on Rate Limit given. */
async function threeItemsOneByOne(local: LocalService, maxRateLimitWait: number) {
	const { outputs } = await engineWith(keys.limited, local.baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('={{ "item " + $json.n }}', 'echo-1', {
			options: { maxRateLimitWait, concurrency: 1 },
		}),
		items: Array.from({ length: 3 }, (_, n) => ({ json: { n } })),
		settings: { onError: 'continueRegularOutput' },
	});
	return outputs;
}

test('with Max Wait on Rate Limit 0 the first 429 fails the item, in the words of what the service named', async () => {
	const local = await limitedService('2/3s@new-api');
	await local.clearRequests();
	const outputs = await threeItemsOneByOne(local, 0);
	expect(outputs[0].map((item) => item.json.error ?? item.json.content)).toEqual([
		'item 0',
		'item 1',
		"The key's limit of 2 requests per 3 s is used up (failed requests count too) (item 2)",
	]);
});

test("a window that outlasts Max Wait on Rate Limit fails the item with the service's words and HTTP status, as every failure", async () => {
	const local = await limitedService('2/m@new-api');
	const outputs = await threeItemsOneByOne(local, 1000);
	const failed = outputs[0][2].json;
	expect(failed.error).toBe(
		"The key's limit of 2 requests a minute is used up (failed requests count too): the service asks to wait longer than Options > Max Wait on Rate Limit (Ms) allows (1000 ms) (item 2)",
	);
	expect(failed.error_details).toMatchObject({
		http_code: 429,
		type: 'new_api_error',
		service_message: expect.stringMatching(/^您已达到总请求数限制：1分钟内最多请求2次/),
		description: expect.stringMatching(
			/^The service answered "您已达到总请求数限制：1分钟内最多请求2次[^"]*" \(HTTP 429, type new_api_error\)\. Lower Options > Concurrency/,
		),
	});
});

test("the Chat Model (an AI node's parallel calls) comes down to new-api's cap the same way", async () => {
	const local = await limitedService('1000000/s,3@new-api', 100);
	await local.clearRequests();
	const prompts = Array.from({ length: 24 }, (_, n) => `call ${n}`);
	const run = await runProbe({
		apiKey: keys.limited,
		baseUrl: local.baseUrl,
		model: 'echo-1',
		script: async (model) => {
			const replies = await Promise.all(prompts.map(async (prompt) => await model.invoke(prompt)));
			return { texts: replies.map((reply) => reply.text) };
		},
	});
	expect(run.error).toBeUndefined();
	expect(run.output?.texts).toEqual(prompts);
	const { limited } = await local.traffic();
	expect(limited.admitted).toBe(24);
	expect(limited.rejected).toBeLessThanOrEqual(21 + 3);
}, 30_000);
