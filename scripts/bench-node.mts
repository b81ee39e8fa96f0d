/**
 * `npm run bench`, after the stream benchmark: the node from source in n8n's execution engine against
 * the local service on loopback, in one run. Prints, asserts nothing:
 * - per-item overhead: 1,000 items through one run of the node against 1,000 sequential bare `fetch`es
 *   of the same request (target: node / fetch <= 1.2);
 * - throughput with Concurrency 1, 4 and 16 when the service adds 50 ms per call (target: 16 >= 10x 1);
 * - peak memory of the whole process for 10,000 items with 2 KB replies (target: under 300 MB).
 * Needs tsx (the harness and the node are TypeScript that Node cannot strip) and `node --expose-gc`:
 * `node --expose-gc --import tsx scripts/bench-node.mts` (scripts/bench.sh).
 */
import process from 'node:process';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../credentials/ChatCompletionsApi.credentials.ts';
import { ChatCompletion } from '../nodes/ChatCompletion/ChatCompletion.node.ts';
import { createEngine, disposeEngine } from '../test/support/engine.cts';
import type { Engine } from '../test/support/engine.cts';
import type { LocalService } from '../test/support/service.cts';
import { keys, startService } from '../test/support/service.cts';

const NODE_TYPE = 'n8n-nodes-chat-completions.chatCompletion';
const OVERHEAD_CALLS = 1000;
const WARM_UP_CALLS = 200;
const LATENCY_MS = 50;
const THROUGHPUT_ITEMS = 64;
const CONCURRENCIES = [1, 4, 16];
const MEMORY_ITEMS = 10_000;
const REPLY_CHARS = 2048;
const SAMPLE_EVERY_MS = 5;
const PROMPT = 'Hello';

const exposedGc = (globalThis as { gc?: () => void }).gc;
if (exposedGc === undefined) {
	console.error('Run with node --expose-gc --import tsx (npm run bench does).');
	process.exit(1);
}
const gc: () => void = exposedGc;

const node = new ChatCompletion();
const engineFor = (baseUrl: string): Engine =>
	createEngine({
		nodeTypes: { [NODE_TYPE]: node },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey: keys.default, baseUrl } },
	});

const parameters = (options: INodeParameters = {}): INodeParameters => ({
	model: { __rl: true, mode: 'id', value: 'echo-1' },
	promptType: 'simple',
	prompt: PROMPT,
	options,
});
const items = (count: number): INodeExecutionData[] => Array.from({ length: count }, () => ({ json: {} }));

/** Runs `count` items through one execution of the node; fails loudly when an item did not get its reply. */
async function runItems(engine: Engine, count: number, options?: INodeParameters): Promise<INodeExecutionData[]> {
	const { outputs, error } = await engine.runNode({ type: NODE_TYPE, parameters: parameters(options), items: items(count) });
	const replies = outputs[0] ?? [];
	if (error || replies.length !== count || replies.some((item) => typeof item.json.content !== 'string')) {
		throw new Error(`The node did not answer every item: ${error?.message ?? JSON.stringify(replies.find((item) => item.json.error)?.json)}`);
	}
	return replies;
}

/** The node's request, sent with `fetch` and read as JSON: the least any client must do. */
async function timedFetch(baseUrl: string): Promise<number> {
	const started = performance.now();
	const response = await fetch(`${baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${keys.default}`, 'Content-Type': 'application/json', Accept: 'application/json' },
		body: JSON.stringify({ model: 'echo-1', messages: [{ role: 'user', content: PROMPT }] }),
	});
	const completion = JSON.parse(await response.text()) as { choices?: unknown[] };
	if (!response.ok || !completion.choices) throw new Error(`fetch got HTTP ${response.status}`);
	return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const ms = (value: number) => `${value.toFixed(3)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function overhead(service: LocalService): Promise<void> {
	const engine = engineFor(service.baseUrl);
	for (let call = 0; call < WARM_UP_CALLS; call++) await timedFetch(service.baseUrl);
	await runItems(engine, WARM_UP_CALLS);
	const fetchTimes: number[] = [];
	for (let call = 0; call < OVERHEAD_CALLS; call++) fetchTimes.push(await timedFetch(service.baseUrl));
	gc();
	const started = performance.now();
	await runItems(engine, OVERHEAD_CALLS);
	const nodeMean = (performance.now() - started) / OVERHEAD_CALLS;
	await service.clearRequests();
	console.log(`\nPer-item overhead: ${OVERHEAD_CALLS} sequential calls each (after ${WARM_UP_CALLS} to warm up)`);
	console.log(`  bare fetch            median ${ms(median(fetchTimes))}, mean ${ms(mean(fetchTimes))}`);
	console.log(`  node in n8n's engine  mean ${ms(nodeMean)} per item (one run of ${OVERHEAD_CALLS} items, total / ${OVERHEAD_CALLS})`);
	console.log(
		`  node / fetch: ${(nodeMean / mean(fetchTimes)).toFixed(2)}x the fetch mean, ` +
			`${(nodeMean / median(fetchTimes)).toFixed(2)}x the fetch median (target <= 1.2)`,
	);
}

function hasConcurrencyOption(): boolean {
	const options = node.description.properties.find((property) => property.name === 'options');
	return (options?.options ?? []).some((option) => 'name' in option && option.name === 'concurrency');
}

async function throughput(): Promise<void> {
	console.log(`\nThroughput: ${THROUGHPUT_ITEMS} items, the service adding ${LATENCY_MS} ms to each call`);
	if (!hasConcurrencyOption()) {
		console.log('  pending: the node has no Concurrency option (options.concurrency) yet');
		return;
	}
	const slow = await startService({ args: ['--latency-ms', String(LATENCY_MS)] });
	try {
		const engine = engineFor(slow.baseUrl);
		const rates = new Map<number, number>();
		for (const concurrency of CONCURRENCIES) {
			const started = performance.now();
			await runItems(engine, THROUGHPUT_ITEMS, { concurrency });
			const seconds = (performance.now() - started) / 1000;
			rates.set(concurrency, THROUGHPUT_ITEMS / seconds);
			console.log(`  concurrency ${String(concurrency).padStart(2)}: ${(THROUGHPUT_ITEMS / seconds).toFixed(1).padStart(6)} items/s (${seconds.toFixed(2)} s)`);
		}
		const [first, last] = [CONCURRENCIES[0], CONCURRENCIES[CONCURRENCIES.length - 1]];
		console.log(`  concurrency ${last} / ${first}: ${(rates.get(last)! / rates.get(first)!).toFixed(1)}x (target >= 10x)`);
	} finally {
		await slow.stop();
	}
}

async function memory(service: LocalService): Promise<void> {
	const engine = engineFor(service.baseUrl);
	const xLocal = { text: 'lorem ipsum dolor sit amet, 2KB ', repeat: REPLY_CHARS / 32 };
	gc();
	const before = process.memoryUsage();
	let peakRss = before.rss;
	let peakHeap = before.heapUsed;
	const sampler = setInterval(() => {
		const { rss, heapUsed } = process.memoryUsage();
		peakRss = Math.max(peakRss, rss);
		peakHeap = Math.max(peakHeap, heapUsed);
	}, SAMPLE_EVERY_MS);
	const started = performance.now();
	let replies: INodeExecutionData[];
	try {
		replies = await runItems(engine, MEMORY_ITEMS, { extraBody: JSON.stringify({ x_local: xLocal }) });
	} finally {
		clearInterval(sampler);
	}
	const seconds = (performance.now() - started) / 1000;
	const after = process.memoryUsage();
	const sizes = new Set(replies.map((item) => (item.json.content as string).length));
	gc();
	const held = process.memoryUsage().heapUsed;
	console.log(`\nMemory: ${MEMORY_ITEMS.toLocaleString('en')} items with ${[...sizes].join(', ')}-character replies in ${seconds.toFixed(1)} s`);
	console.log(`  process RSS: ${mb(before.rss)} before, peak ${mb(peakRss)} (sampled every ${SAMPLE_EVERY_MS} ms; target under 300 MB), ${mb(after.rss)} after`);
	console.log(`  process max RSS over the whole benchmark: ${mb(process.resourceUsage().maxRSS * 1024)}`);
	console.log(
		`  heap used: ${mb(before.heapUsed)} before, peak ${mb(peakHeap)} (+${mb(peakHeap - before.heapUsed)}), ` +
			`${mb(held)} after a collection with the output still held (+${mb(held - before.heapUsed)})`,
	);
}

const service = await startService();
try {
	console.log(
		`Node ${process.versions.node}; the local service on ${service.origin}; model echo-1; ` +
			`process RSS ${mb(process.memoryUsage().rss)} at start (n8n-core and the node loaded)`,
	);
	// Memory first, so that its peak is not inflated by what the other runs left behind.
	await memory(service);
	await overhead(service);
	await throughput();
} finally {
	await service.stop();
	await disposeEngine();
}
