/**
 * The batch benchmark: in n8n's engine, the Chat Completion node and n8n's HTTP Request node, both at their
 * defaults, send the same request for every item to the same local service, side by side in one run
 * (scripts/bench/contenders.mts). It prints figures and asserts nothing:
 * (a) 128 items, the service answering in 50 ms, On Error: Stop Workflow; ours with Continue beside it
 *     (target: ours / HTTP Request <= 1.0);
 * (b) 1,000 items, instant service (target <= 0.7);
 * (c) 500 items on the key limited to 20 requests/s and 8 in flight, service 50 ms: errors surfaced,
 *     elapsed against the ideal (items / allowed rate), 429s, retries, the most in flight, in flight per
 *     second (target: 0 errors within 1.3x the ideal);
 * (d) 10,000 items with 2 KB replies, each node in a fresh process: peak memory growth, ours also at
 *     Concurrency 1 (the old default) as the baseline, three rounds taking turns (peak RSS varies by some
 *     MB from run to run with the collector's timing): the median;
 * (e) would a slow start (one request alone, then Auto) pay off under Stop Workflow: requests and time for a bad
 *     key, a model that does not exist on every item and on one item, and what it costs (a), (b) and the same
 *     at 300 ms (scripts/bench/slow-start.mts, its own tables);
 * (f) 300 items against each kind of gateway's rate limit (scripts/bench/rate-limits.mts: retry-after-ms,
 *     OpenAI's and LiteLLM's x-ratelimit headers, OpenRouter's reset instant, new-api's cap and counting window),
 *     the Chat Completion node and n8n's AI Agent with the Chat Model (n8n's install: scripts/bench/n8n-install.mts);
 * then a summary table of (a) to (d) and (f). Times in (a) and (b) are medians of executions taking turns, so that a change in
 * the machine's load falls on both nodes alike; in-flight counts are the service's own.
 */
import type { NodeSettings, RunNodeResult } from '../../dev/n8n-core/harness.cts';
import type { LocalService } from '../../dev/service-client/local-service.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import { answeredItems } from './clients.mts';
import type { Contender, ContenderName } from './contenders.mts';
import { CONTENDER_LABELS, createContenders } from './contenders.mts';
import { inFlightPlot } from './in-flight-plot.mts';
import { measureMemory, memoryLine } from './memory.mts';
import { partF } from './rate-limits.mts';
import { partE } from './slow-start.mts';
import { mb, median } from './stats.mts';
import { arrivalsOf, drained } from './traffic.mts';

export const BATCH_PARTS = ['a', 'b', 'c', 'd', 'e', 'f'] as const;
export type BatchPart = (typeof BATCH_PARTS)[number];

const LATENCY_MS = 50;
const ROUNDS = 5;
const WARM_UP_ITEMS = 64;
const CONTINUE: NodeSettings = { onError: 'continueRegularOutput' };
const LIMITED_ITEMS = 500;
const MEMORY_ITEMS = 10_000;
const MEMORY_ROUNDS = 3;
const REPLY_CHARS = 2048;

/** A line of the summary table. */
interface Row {
	part: string;
	ours: string;
	httpRequest: string;
	ratio: string;
	target: string;
}

interface Entry {
	label: string;
	name: ContenderName;
	settings?: NodeSettings;
}

const seconds = (value: number) => `${value.toFixed(2)} s`;
const since = (started: number) => (performance.now() - started) / 1000;

/** One execution on a cleared service: its time, its result and what the service saw of `key`. */
export async function timed(service: LocalService, key: string, run: () => Promise<RunNodeResult>) {
	await drained(service, key);
	await service.clearRequests();
	const started = performance.now();
	const result = await run();
	const elapsed = since(started);
	await drained(service, key);
	return { seconds: elapsed, result, traffic: (await service.traffic())[key] };
}

/** Each entry over `count` items, `ROUNDS` times taking turns after a warm-up: median time, most in flight. */
async function compare(
	service: LocalService,
	contenders: Record<ContenderName, Contender>,
	entries: Entry[],
	count: number,
) {
	const run = (entry: Entry, items: number) => async () => {
		const contender = contenders[entry.name];
		const result = await contender.run({ count: items, settings: entry.settings });
		answeredItems(entry.label, items, result, contender.reply);
		return result;
	};
	for (const entry of entries) await run(entry, WARM_UP_ITEMS)();
	const times = entries.map(() => [] as number[]);
	const inFlight = entries.map(() => 0);
	for (let round = 0; round < ROUNDS; round++) {
		for (let turn = 0; turn < entries.length; turn++) {
			const index = (round + turn) % entries.length;
			const figures = await timed(service, 'default', run(entries[index], count));
			times[index].push(figures.seconds);
			inFlight[index] = Math.max(inFlight[index], figures.traffic.maxInFlight);
		}
	}
	const width = Math.max(...entries.map((entry) => entry.label.length));
	return entries.map((entry, index) => {
		const value = median(times[index]);
		console.log(
			`  ${entry.label.padEnd(width)}  ${seconds(value)} (median of ${ROUNDS}; ${Math.round(count / value)} items/s), ` +
				`at most ${inFlight[index]} in flight`,
		);
		return value;
	});
}

async function timeRows(
	part: string,
	service: LocalService,
	count: number,
	target: number,
	withContinue: boolean,
): Promise<Row[]> {
	const contenders = createContenders(service.baseUrl, keys.default);
	const entries: Entry[] = [
		{ label: CONTENDER_LABELS.ours, name: 'ours' },
		{ label: CONTENDER_LABELS.httpRequest, name: 'httpRequest' },
		...(withContinue
			? [
					{
						label: `${CONTENDER_LABELS.ours}, On Error: Continue`,
						name: 'ours' as const,
						settings: CONTINUE,
					},
				]
			: []),
	];
	const [ours, httpRequest, continued] = await compare(service, contenders, entries, count);
	const ratio = ours / httpRequest;
	console.log(`  ours / HTTP Request: ${ratio.toFixed(2)} (target <= ${target.toFixed(1)})`);
	const rows = [
		{
			part,
			ours: seconds(ours),
			httpRequest: seconds(httpRequest),
			ratio: ratio.toFixed(2),
			target: `<= ${target.toFixed(1)}`,
		},
	];
	if (continued !== undefined) {
		const continueRatio = (continued / httpRequest).toFixed(2);
		console.log(`  ours with Continue / HTTP Request: ${continueRatio}`);
		rows.push({
			part: `${part}, ours On Error: Continue`,
			ours: seconds(continued),
			httpRequest: '',
			ratio: continueRatio,
			target: '',
		});
	}
	return rows;
}

async function partA(slow: LocalService): Promise<Row[]> {
	console.log(
		`\n(a) 128 items, the service answering in ${LATENCY_MS} ms, both nodes at their defaults (On Error: Stop Workflow)`,
	);
	return await timeRows('(a) 128 items, 50 ms', slow, 128, 1.0, true);
}

async function partB(fast: LocalService): Promise<Row[]> {
	console.log('\n(b) 1,000 items, instant service, both nodes at their defaults');
	return await timeRows('(b) 1,000 items, instant', fast, 1000, 0.7, false);
}

/** How an execution on the limited key ended: the run's error, else the count of error items. */
function errorsSurfaced(
	contender: Contender,
	result: RunNodeResult,
): { count: number; text: string } {
	if (result.error)
		return { count: 1, text: `the execution failed: ${result.error.message.slice(0, 140)}` };
	const items = result.outputs.flat();
	const failed = items.filter((item) => contender.reply(item) === undefined).length;
	return { count: failed, text: `${failed} error items, ${items.length - failed} replies` };
}

async function partC(slow: LocalService): Promise<Row[]> {
	const contenders = createContenders(slow.baseUrl, keys.limited);
	const limit = (await slow.traffic()).limited.limit!;
	const ideal = LIMITED_ITEMS / (limit.requests / limit.windowSeconds);
	console.log(
		`\n(c) ${LIMITED_ITEMS} items on a key limited to ${limit.requests} requests per ${limit.windowSeconds} s and ` +
			`${limit.inFlight} in flight, service ${LATENCY_MS} ms; ideal ${seconds(ideal)} (items / allowed rate)`,
	);
	const ours = await timed(slow, 'limited', () => contenders.ours.run({ count: LIMITED_ITEMS }));
	const arrivals = await arrivalsOf(slow, keys.limited);
	const oursErrors = errorsSurfaced(contenders.ours, ours.result);
	const retries = Math.max(0, ours.traffic.admitted + ours.traffic.rejected - LIMITED_ITEMS);
	const oursRatio = ours.seconds / ideal;
	console.log(
		`  ${CONTENDER_LABELS.ours} (defaults): ${seconds(ours.seconds)} = ${oursRatio.toFixed(2)}x the ideal; ${oursErrors.text}; ` +
			`429s received ${ours.traffic.rejected} (window ${ours.traffic.rejectedBy.window}, in flight ${ours.traffic.rejectedBy.inFlight}); ` +
			`retries ${retries}; at most ${ours.traffic.maxInFlight} in flight`,
	);
	for (const line of inFlightPlot(ours.traffic, arrivals, ours.traffic.timeline[0].at))
		console.log(`  ${line}`);

	const http = await timed(slow, 'limited', () =>
		contenders.httpRequest.run({ count: LIMITED_ITEMS }),
	);
	const httpErrors = errorsSurfaced(contenders.httpRequest, http.result);
	console.log(
		`  ${CONTENDER_LABELS.httpRequest} (defaults): ${seconds(http.seconds)}; ${httpErrors.text}; ` +
			`429s received ${http.traffic.rejected}, replies ${http.traffic.admitted}; at most ${http.traffic.maxInFlight} in flight`,
	);
	const httpContinue = await timed(slow, 'limited', () =>
		contenders.httpRequest.run({ count: LIMITED_ITEMS, settings: CONTINUE }),
	);
	const continueErrors = errorsSurfaced(contenders.httpRequest, httpContinue.result);
	console.log(
		`  ${CONTENDER_LABELS.httpRequest} (On Error: Continue): ${seconds(httpContinue.seconds)}; ${continueErrors.text}`,
	);
	return [
		{
			part: `(c) ${LIMITED_ITEMS} items, ${limit.requests}/s + ${limit.inFlight} in flight`,
			ours: `${seconds(ours.seconds)}, ${oursErrors.count} errors`,
			httpRequest: `${httpErrors.count > 0 && http.result.error ? 'failed' : seconds(http.seconds)}, ${http.traffic.rejected} 429s`,
			ratio: `${oursRatio.toFixed(2)}x ideal`,
			target: '0 errors, <= 1.3x',
		},
	];
}

async function partD(fast: LocalService): Promise<Row[]> {
	console.log(
		`\n(d) ${MEMORY_ITEMS.toLocaleString('en')} items with ${REPLY_CHARS}-character replies, instant service, ` +
			'each node at its defaults in a fresh process; ours at Concurrency 1 (one item after the other, the old default), ' +
			`same items and prompt expression, as the baseline; ${MEMORY_ROUNDS} rounds taking turns, each run's figures, then the median growth`,
	);
	const runs = [
		{ key: 'ours', name: 'ours', label: CONTENDER_LABELS.ours },
		{ key: 'httpRequest', name: 'httpRequest', label: CONTENDER_LABELS.httpRequest },
		{
			key: 'baseline',
			name: 'ours',
			label: `${CONTENDER_LABELS.ours}, Concurrency 1`,
			concurrency: 1,
		},
	];
	const width = Math.max(...runs.map(({ label }) => label.length));
	const growths: Record<string, number[]> = Object.fromEntries(runs.map(({ key }) => [key, []]));
	for (let round = 0; round < MEMORY_ROUNDS; round++) {
		for (const { key, name, label, concurrency } of runs) {
			const figures = await measureMemory(
				name,
				fast.baseUrl,
				MEMORY_ITEMS,
				REPLY_CHARS,
				concurrency,
			);
			await fast.clearRequests();
			growths[key].push(figures.peakRss - figures.startRss);
			console.log(memoryLine(label.padEnd(width), figures));
		}
	}
	const growth = (key: string) => median(growths[key]);
	const range = (key: string) =>
		`${mb(Math.min(...growths[key]))} to ${mb(Math.max(...growths[key]))}`;
	for (const { key, label } of runs)
		console.log(`  ${label.padEnd(width)}  median peak growth +${mb(growth(key))} (${range(key)})`);
	return [
		{
			part: `(d) ${MEMORY_ITEMS.toLocaleString('en')} items, 2 KB replies: peak growth (median)`,
			ours: `+${mb(growth('ours'))}`,
			httpRequest: `+${mb(growth('httpRequest'))}`,
			ratio: (growth('ours') / growth('httpRequest')).toFixed(2),
			target: `no worse than Concurrency 1: +${mb(growth('baseline'))}`,
		},
	];
}

function printSummary(rows: Row[], took: Map<string, number>): void {
	const header: Row = {
		part: 'part',
		ours: CONTENDER_LABELS.ours,
		httpRequest: CONTENDER_LABELS.httpRequest,
		ratio: 'ratio',
		target: 'target',
	};
	const columns = ['part', 'ours', 'httpRequest', 'ratio', 'target'] as const;
	const widths = columns.map((column) =>
		Math.max(...[header, ...rows].map((row) => row[column].length)),
	);
	if (rows.length > 0) {
		console.log('\nSummary (ratio: ours / HTTP Request, or elapsed / ideal in (c))');
		for (const row of [header, ...rows])
			console.log(
				`  ${columns.map((column, index) => row[column].padEnd(widths[index])).join('  ')}`.trimEnd(),
			);
	}
	console.log(
		`  took: ${[...took].map(([part, value]) => `(${part}) ${value.toFixed(0)} s`).join(', ')}`,
	);
}

/** Runs the given parts (all when none is given) against services of their own. */
export async function benchBatches(parts: readonly BatchPart[]): Promise<void> {
	const chosen = parts.length > 0 ? parts : BATCH_PARTS;
	console.log(
		"\nBatches in n8n's engine: the Chat Completion node beside n8n's HTTP Request node (POST, JSON body from an " +
			'expression, Header Auth credential), both at their defaults, same local service, model echo-1',
	);
	const fast = await startService();
	const slow = await startService({ args: ['--latency-ms', String(LATENCY_MS)] });
	const steps: Record<BatchPart, () => Promise<Row[]>> = {
		a: () => partA(slow),
		b: () => partB(fast),
		c: () => partC(slow),
		d: () => partD(fast),
		e: async () => {
			await partE(fast, slow);
			return [];
		},
		f: partF,
	};
	const rows: Row[] = [];
	const took = new Map<string, number>();
	try {
		for (const part of chosen) {
			const started = performance.now();
			rows.push(...(await steps[part]()));
			took.set(part, since(started));
		}
	} finally {
		await Promise.all([fast.stop(), slow.stop()]);
	}
	printSummary(rows, took);
}
