/**
 * `npm run bench`, after the stream benchmark: the node from source in n8n's execution engine against
 * the local service on loopback, side by side with bare `fetch` and with n8n's request helper alone
 * (scripts/bench/clients.mts). Prints, asserts nothing:
 * - per-item overhead: 1,000 sequential calls per client, in blocks that take turns; an item's time is
 *   the gap between two requests arriving at the service, so every client is timed by the same clock
 *   in the same way (target: median node / median fetch <= 1.2);
 * - throughput with Concurrency 1, 4 and 16 when the service adds 50 ms per call (target: 16 >= 10x 1);
 * - peak memory of the whole process for 10,000 items with 2 KB replies, each client in a fresh
 *   process (scripts/bench/memory-run.mts; target: under 300 MB);
 * With the arguments `batches [a|b|c|d|e]...` it runs the batches instead: the node at its defaults beside
 * n8n's HTTP Request node (scripts/bench/batches.mts; all five parts when none is named).
 * Needs tsx (the harness and the node are TypeScript that Node cannot strip) and `node --expose-gc`:
 * `node --expose-gc --import tsx scripts/bench-node.mts` (scripts/bench.sh).
 */
import process from 'node:process';

import type { Client, ClientName } from './bench/clients.mts';
import { CLIENT_LABELS, CLIENT_NAMES, createClient } from './bench/clients.mts';
import type { BatchPart } from './bench/batches.mts';
import { BATCH_PARTS, benchBatches } from './bench/batches.mts';
import { measureMemory, memoryLine } from './bench/memory.mts';
import { mean, median } from './bench/stats.mts';
import { disposeEngine } from '../dev/n8n-core/harness.cts';
import type { LocalService } from '../dev/service-client/local-service.cts';
import { startService } from '../dev/service-client/local-service.cts';

const OVERHEAD_CALLS = 1000;
const WARM_UP_CALLS = 200;
const ROUNDS = 5;
const LATENCY_MS = 50;
const THROUGHPUT_ITEMS = 64;
const CONCURRENCIES = [1, 4, 16];
const MEMORY_ITEMS = 10_000;
const REPLY_CHARS = 2048;

const ms = (value: number) => `${value.toFixed(3)} ms`;
const pad = (text: string) =>
	text.padEnd(Math.max(...Object.values(CLIENT_LABELS).map((label) => label.length)));

/** The gaps between consecutive request arrivals at the service while `client` sends `count` calls. */
async function arrivalGaps(
	service: LocalService,
	client: Client,
	count: number,
): Promise<number[]> {
	await service.clearRequests();
	await client.run(count);
	const arrivals = (await service.requests()).map((request) => request.receivedAt);
	if (arrivals.length !== count)
		throw new Error(`The service saw ${arrivals.length} requests, not ${count}`);
	return arrivals.slice(1).map((at, index) => at - arrivals[index]);
}

async function overhead(service: LocalService): Promise<void> {
	const clients = CLIENT_NAMES.map((name) => [name, createClient(name, service.baseUrl)] as const);
	for (const [, client] of clients) await client.run(WARM_UP_CALLS);
	const gaps = new Map<ClientName, number[]>(CLIENT_NAMES.map((name) => [name, []]));
	// Blocks of calls, the clients taking turns in a rotating order, so that a change in the machine's
	// load during the run falls on every client alike.
	for (let round = 0; round < ROUNDS; round++) {
		for (let turn = 0; turn < clients.length; turn++) {
			const [name, client] = clients[(round + turn) % clients.length];
			gaps.get(name)!.push(...(await arrivalGaps(service, client, OVERHEAD_CALLS / ROUNDS)));
		}
	}
	console.log(
		`\nPer-item overhead: ${OVERHEAD_CALLS} sequential calls per client (after ${WARM_UP_CALLS} to warm up), ` +
			`in ${ROUNDS} blocks taking turns, timed at the service`,
	);
	const medians = new Map<ClientName, number>();
	for (const [name, values] of gaps) {
		medians.set(name, median(values));
		console.log(
			`  ${pad(CLIENT_LABELS[name])}  median ${ms(median(values))}, mean ${ms(mean(values))} per item`,
		);
	}
	const ratio = (a: ClientName, b: ClientName) => (medians.get(a)! / medians.get(b)!).toFixed(2);
	console.log(`  node / fetch: ${ratio('node', 'fetch')}x (ratio of medians; target <= 1.2)`);
	console.log(
		`  of which n8n's request helper / fetch: ${ratio('helper', 'fetch')}x, node / helper: ${ratio('node', 'helper')}x`,
	);
}

async function throughput(): Promise<void> {
	console.log(
		`\nThroughput: ${THROUGHPUT_ITEMS} items, the service adding ${LATENCY_MS} ms to each call`,
	);
	const slow = await startService({ args: ['--latency-ms', String(LATENCY_MS)] });
	try {
		const node = createClient('node', slow.baseUrl);
		const rates = new Map<number, number>();
		for (const concurrency of CONCURRENCIES) {
			const started = performance.now();
			await node.run(THROUGHPUT_ITEMS, { concurrency });
			const seconds = (performance.now() - started) / 1000;
			rates.set(concurrency, THROUGHPUT_ITEMS / seconds);
			console.log(
				`  concurrency ${String(concurrency).padStart(2)}: ${(THROUGHPUT_ITEMS / seconds).toFixed(1).padStart(6)} items/s (${seconds.toFixed(2)} s)`,
			);
		}
		const [first, last] = [CONCURRENCIES[0], CONCURRENCIES[CONCURRENCIES.length - 1]];
		console.log(
			`  concurrency ${last} / ${first}: ${(rates.get(last)! / rates.get(first)!).toFixed(1)}x (target >= 10x)`,
		);
	} finally {
		await slow.stop();
	}
}

async function memory(service: LocalService): Promise<void> {
	console.log(
		`\nMemory: ${MEMORY_ITEMS.toLocaleString('en')} sequential items with ${REPLY_CHARS}-character replies, ` +
			'each client in a fresh process that loads the same modules (n8n-core included)',
	);
	for (const name of CLIENT_NAMES) {
		const figures = await measureMemory(name, service.baseUrl, MEMORY_ITEMS, REPLY_CHARS);
		await service.clearRequests();
		console.log(memoryLine(pad(CLIENT_LABELS[name]), figures));
	}
	console.log("  target: the node's peak under 300 MB for the whole process");
}

/** `batches [a|b|c|d|e]...`: the batch parts (all five when none is named); nothing: the parts above. */
function batchPartsAsked(args: string[]): BatchPart[] | undefined {
	if (args.length === 0) return undefined;
	const [mode, ...parts] = args;
	const unknown = parts.filter((part) => !(BATCH_PARTS as readonly string[]).includes(part));
	if (mode !== 'batches' || unknown.length > 0) {
		throw new Error(
			`Usage: npm run bench [-- batches [${BATCH_PARTS.join('|')}]...]; not understood: ${args.join(' ')}`,
		);
	}
	return parts as BatchPart[];
}

const batchParts = batchPartsAsked(process.argv.slice(2));
console.log(
	`Node ${process.versions.node}; model echo-1; n8n expressions: ${process.env.N8N_EXPRESSION_ENGINE ?? 'legacy'} engine`,
);
try {
	if (batchParts === undefined) {
		const service = await startService();
		try {
			await overhead(service);
			await throughput();
			await memory(service);
		} finally {
			await service.stop();
		}
	} else {
		await benchBatches(batchParts);
	}
} finally {
	await disposeEngine();
}
