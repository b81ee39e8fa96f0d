/**
 * `npm run bench -- remote`, in-engine part: the local service made remote by the relay (dev/relay/: TLS with
 * the throw-away CA that bench.sh made and put in NODE_EXTRA_CA_CERTS, 25 ms each way, a TCP handshake's round
 * trip on each new connection), the service answering in 50 ms. In n8n's engine, from source; prints, asserts
 * nothing; every measurement with the TCP connections and TLS handshakes (full, resumed) the relay saw and the
 * most requests the service had in flight:
 * (a) 128 items, both nodes at their defaults: the Chat Completion node beside n8n's HTTP Request node, median
 *     of rounds taking turns (target: ours / HTTP Request <= 0.5);
 * (b) Concurrency 1: the node's time per item against one round trip plus the service's time (target <= 1.2x);
 * (c) time to the first streamed token: the node streaming to a streaming run (its first chunk) beside bare
 *     `fetch` reading the stream, one call after the other, taking turns.
 * The AI Agent turn in real n8n is the other part of `remote` (test/e2e/chat-model-bench.test.cts).
 */
import process from 'node:process';

import type { StructuredChunk } from 'n8n-workflow';

import { timed } from './bench/batches.mts';
import { answeredItems } from './bench/clients.mts';
import type { Batch, Contender } from './bench/contenders.mts';
import { CONTENDER_LABELS, createContenders } from './bench/contenders.mts';
import { median } from './bench/stats.mts';
import { disposeEngine } from '../dev/n8n-core/harness.cts';
import type { RunNodeResult } from '../dev/n8n-core/harness.cts';
import type { Relay, RelayCounts } from '../dev/relay/start.cts';
import { connectionsLine, startRelay, tlsDirFromEnv } from '../dev/relay/start.cts';
import type { LocalService } from '../dev/service-client/local-service.cts';
import { keys, startService } from '../dev/service-client/local-service.cts';

const ONE_WAY_MS = 25;
const LATENCY_MS = 50;
const BATCH_ITEMS = 128;
const ROUNDS = 3;
const SEQUENTIAL_ITEMS = 32;
const FIRST_TOKEN_CALLS = 10;
const PROMPT = 'one two three four five six seven eight';

const ms = (value: number) => `${value.toFixed(1)} ms`;

interface Measured {
	seconds: number;
	counts: RelayCounts;
	maxInFlight: number;
}

/** One execution of a contender through the relay: its time, the relay's counts and the most in flight. */
async function measured(
	service: LocalService,
	relay: Relay,
	run: () => Promise<RunNodeResult>,
	check: (result: RunNodeResult) => void,
): Promise<Measured> {
	await relay.reset();
	const { seconds, result, traffic } = await timed(service, 'default', run);
	check(result);
	return { seconds, counts: await relay.reset(), maxInFlight: traffic.maxInFlight };
}

type Contenders = ReturnType<typeof createContenders>;

async function batch(service: LocalService, relay: Relay, contenders: Contenders): Promise<void> {
	console.log(
		`\n(a) ${BATCH_ITEMS} items, both nodes at their defaults, ${ROUNDS} rounds taking turns after a warm-up`,
	);
	const names = ['ours', 'httpRequest'] as const;
	const times = { ours: [] as number[], httpRequest: [] as number[] };
	const last: Partial<Record<(typeof names)[number], Measured>> = {};
	for (let round = -1; round < ROUNDS; round++) {
		for (const name of round % 2 === 0 ? [...names].reverse() : names) {
			const contender = contenders[name];
			const figures = await measured(
				service,
				relay,
				() => contender.run({ count: BATCH_ITEMS }),
				(result) => answeredItems(CONTENDER_LABELS[name], BATCH_ITEMS, result, contender.reply),
			);
			if (round < 0) {
				console.log(
					`  ${CONTENDER_LABELS[name]}, warm-up (new connections): ${figures.seconds.toFixed(2)} s, ${connectionsLine(figures.counts, figures.maxInFlight)}`,
				);
				continue;
			}
			times[name].push(figures.seconds);
			last[name] = figures;
		}
	}
	for (const name of names) {
		const figures = last[name]!;
		console.log(
			`  ${CONTENDER_LABELS[name].padEnd(15)}  ${median(times[name]).toFixed(2)} s (median); last round: ` +
				connectionsLine(figures.counts, figures.maxInFlight),
		);
	}
	const ratio = median(times.ours) / median(times.httpRequest);
	console.log(`  ours / HTTP Request: ${ratio.toFixed(2)} (target <= 0.5)`);
}

async function sequential(
	service: LocalService,
	relay: Relay,
	{ ours }: Contenders,
): Promise<void> {
	const floor = 2 * ONE_WAY_MS + LATENCY_MS;
	console.log(
		`\n(b) ${SEQUENTIAL_ITEMS} items at Concurrency 1, ${ROUNDS} runs: time per item against one round trip plus ` +
			`the service's time (${floor} ms)`,
	);
	const run: Batch = { count: SEQUENTIAL_ITEMS, concurrency: 1 };
	const perItem: number[] = [];
	let figures: Measured | undefined;
	for (let round = 0; round < ROUNDS; round++) {
		figures = await measured(
			service,
			relay,
			() => ours.run(run),
			(result) => answeredItems(CONTENDER_LABELS.ours, SEQUENTIAL_ITEMS, result, ours.reply),
		);
		perItem.push((figures.seconds * 1000) / SEQUENTIAL_ITEMS);
		console.log(
			`  run ${round + 1}: ${ms(perItem[round])} per item; ${connectionsLine(figures.counts, figures.maxInFlight)}`,
		);
	}
	console.log(
		`  median ${ms(median(perItem))} per item = ${(median(perItem) / floor).toFixed(2)}x (target <= 1.2x)`,
	);
}

/** Milliseconds from the call to the first text of the reply, bare `fetch` reading the SSE stream itself. */
async function fetchFirstToken(baseUrl: string): Promise<number> {
	const started = performance.now();
	const response = await fetch(`${baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${keys.default}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({
			model: 'echo-1',
			messages: [{ role: 'user', content: PROMPT }],
			stream: true,
		}),
	});
	const decoder = new TextDecoder();
	let text = '';
	let first: number | undefined;
	for await (const bytes of response.body!) {
		text += decoder.decode(bytes as Uint8Array, { stream: true });
		if (first === undefined && /"content":"[^"]/.test(text)) first = performance.now() - started;
	}
	if (first === undefined)
		throw new Error(`bare fetch: no text in the stream ${text.slice(0, 200)}`);
	return first;
}

/** Milliseconds from the run's start to the node's first text chunk, in a streaming run with Stream on. */
async function nodeFirstToken(ours: Contender): Promise<number> {
	let first: number | undefined;
	const started = performance.now();
	const onChunk = (chunk: StructuredChunk) => {
		if (chunk.type === 'item' && chunk.content && first === undefined)
			first = performance.now() - started;
	};
	const result = await ours.run({ count: 1, concurrency: 1, onChunk });
	answeredItems(CONTENDER_LABELS.ours, 1, result, ours.reply);
	if (first === undefined) throw new Error('The node streamed no text');
	return first;
}

async function firstToken(
	service: LocalService,
	relay: Relay,
	{ ours }: Contenders,
): Promise<void> {
	console.log(
		`\n(c) time to the first streamed token, ${FIRST_TOKEN_CALLS} calls each one after the other, taking turns`,
	);
	const clients = [
		{ label: `${CONTENDER_LABELS.ours}, Stream on`, first: () => nodeFirstToken(ours) },
		{ label: 'bare fetch', first: () => fetchFirstToken(relay.baseUrl) },
	];
	const times = clients.map(() => [] as number[]);
	const counts = clients.map(() => ({ connections: 0, fullHandshakes: 0, resumedHandshakes: 0 }));
	for (let call = 0; call < FIRST_TOKEN_CALLS; call++) {
		for (const [index, client] of clients.entries()) {
			await relay.reset();
			times[index].push(await client.first());
			const seen = await relay.reset();
			for (const key of Object.keys(seen) as Array<keyof RelayCounts>)
				counts[index][key] += seen[key];
		}
	}
	const maxInFlight = (await service.traffic()).default.maxInFlight;
	for (const [index, { label }] of clients.entries()) {
		console.log(
			`  ${label.padEnd(25)}  first call ${ms(times[index][0])}, median ${ms(median(times[index]))}; ` +
				connectionsLine(counts[index], maxInFlight),
		);
	}
}

tlsDirFromEnv();
console.log(
	`\nRemote: the local service behind the relay (TLS, ${2 * ONE_WAY_MS} ms round trip, a round trip per TCP ` +
		`connect), the service answering in ${LATENCY_MS} ms; Node ${process.versions.node}`,
);
const service = await startService({ args: ['--latency-ms', String(LATENCY_MS)] });
const relay = await startRelay(service.origin, tlsDirFromEnv(), ONE_WAY_MS);
// One engine for all: connections kept by one part may serve the next, as in one n8n process.
const contenders = createContenders(relay.baseUrl, keys.default);
try {
	await batch(service, relay, contenders);
	await sequential(service, relay, contenders);
	await service.clearRequests();
	await firstToken(service, relay, contenders);
} finally {
	await Promise.all([relay.stop(), service.stop()]);
	await disposeEngine();
}
