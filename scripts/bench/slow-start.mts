/**
 * Part (e) of the batch benchmark: would a slow start (one request alone first, then Auto) pay off for the
 * Chat Completion node under On Error: Stop Workflow, and what would it cost the ordinary batches? In n8n's
 * engine against the local service, the request counts from the service's own log. It prints, asserts nothing:
 * 1. failures that hit every item, 200 items, service 300 ms: a key the service does not know (401) and a model
 *    that does not exist (404): requests the service received and elapsed time, Auto as shipped beside a slow
 *    start and Concurrency 1;
 * 2. the same three for a model that does not exist on item 20 only (the other items' model is fine);
 * 3. what a slow start costs batches that succeed: Auto against a slow start for (a) 128 items at 50 ms and (b)
 *    1,000 instant items, then both at a remote-like 300 ms; medians of executions taking turns.
 * The node has no slow start, and this branch does not add one: a slow start is modelled by running the node
 * twice, on the first item alone (one request, one round trip), then, unless that failed (Stop Workflow ends the
 * run), at Auto on the other items. That is the time and the requests of a limiter that starts at 1 and opens to
 * Auto's start after the first answer; the second execution's own start (some ms) is in the figures too. Auto
 * starts where it left off on the key: 64 on a key new to the process (the failures below), 128 on one that
 * answered fine (the batches that succeed, after their warm-up).
 */
import { setTimeout as delay } from 'node:timers/promises';

import type { INodeExecutionData } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials.ts';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node.ts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Engine, RunNodeResult } from '../../dev/n8n-core/harness.cts';
import type { LocalService } from '../../dev/service-client/local-service.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import { CHAT_NODE, contentOf } from './chat-request.mts';
import { answeredItems, CREDENTIAL_TYPE } from './clients.mts';
import { median } from './stats.mts';
import { drained } from './traffic.mts';

const REMOTE_MS = 300;
const FAILING_ITEMS = 200;
/** The item (counting from 0, as in test/node/stop-workflow.test.cts) whose model does not exist. */
const BAD_ITEM = 20;
const GOOD_MODEL = 'echo-1';
const BAD_MODEL = 'no-such-model';
/** A key the service does not know: it answers 401 "Incorrect API key provided". */
const BAD_KEY = 'sk-example-not-a-key';
const FAILURE_ROUNDS = 3;
const COST_ROUNDS = 5;
const WARM_UP_ITEMS = 64;

type Start = 'auto' | 'slow' | 'one';
const STARTS: Start[] = ['auto', 'slow', 'one'];
const START_LABELS: Record<Start, string> = {
	auto: 'Auto',
	slow: 'slow start (1, then Auto)',
	one: 'Concurrency 1',
};

const seconds = (value: number) => `${value.toFixed(2)} s`;

/** Items `{ prompt, n }`, n from `from`; the model expression reads `n`. */
const items = (from: number, count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, index) => ({
		json: { prompt: `Item ${from + index + 1}`, n: from + index },
	}));

function engineFor(baseUrl: string, apiKey: string): Engine {
	return createEngine({
		nodeTypes: { [CHAT_NODE]: new ChatCompletion() },
		credentialTypes: { [CREDENTIAL_TYPE]: new ChatCompletionsApi() },
		credentials: { [CREDENTIAL_TYPE]: { apiKey, baseUrl } },
	});
}

/** One execution of the node at its defaults (On Error: Stop Workflow) over `batch`. */
function runOnce(
	engine: Engine,
	model: string,
	batch: INodeExecutionData[],
	concurrency?: number,
): Promise<RunNodeResult> {
	return engine.runNode({
		type: CHAT_NODE,
		parameters: {
			model: { __rl: true, mode: 'id', value: model },
			promptType: 'simple',
			prompt: '={{ $json.prompt }}',
			options: concurrency === undefined ? {} : { concurrency },
		},
		items: batch,
	});
}

/** `count` items with the given start; a slow start is two executions (see the header). */
async function runBatch(
	engine: Engine,
	model: string,
	count: number,
	start: Start,
): Promise<RunNodeResult> {
	if (start !== 'slow')
		return await runOnce(engine, model, items(0, count), start === 'one' ? 1 : undefined);
	const first = await runOnce(engine, model, items(0, 1));
	if (first.error || count === 1) return first;
	const rest = await runOnce(engine, model, items(1, count - 1));
	return { ...rest, outputs: [[...(first.outputs[0] ?? []), ...(rest.outputs[0] ?? [])]] };
}

/** One batch on a cleared service: its time, its result, and the requests the service received. */
async function measured(service: LocalService, run: () => Promise<RunNodeResult>) {
	await drained(service, 'default');
	await service.clearRequests();
	const started = performance.now();
	const result = await run();
	const elapsed = (performance.now() - started) / 1000;
	// Requests cancelled at the stop may still be on their way; a refused key never shows as in flight.
	await delay(50);
	await drained(service, 'default');
	const requests = await service.requests();
	const valid = requests.filter(
		(request) => (request.body as { model?: unknown } | null)?.model === GOOD_MODEL,
	).length;
	return { seconds: elapsed, result, requests: requests.length, valid };
}

interface FailureCase {
	label: string;
	apiKey: string;
	model: string;
	/** What the run must fail with: a batch that did not fail measures nothing here. */
	error: RegExp;
}

/** A case's three starts, `FAILURE_ROUNDS` times taking turns: median requests and time per start. */
async function failureRow(
	service: LocalService,
	{ label, apiKey, model, error }: FailureCase,
): Promise<string[]> {
	const engine = engineFor(service.baseUrl, apiKey);
	const figures = STARTS.map(() => ({
		seconds: [] as number[],
		requests: [] as number[],
		valid: [] as number[],
	}));
	for (let round = 0; round < FAILURE_ROUNDS; round++) {
		for (let turn = 0; turn < STARTS.length; turn++) {
			const index = (round + turn) % STARTS.length;
			const run = await measured(service, () =>
				runBatch(engine, model, FAILING_ITEMS, STARTS[index]),
			);
			if (!error.test(run.result.error?.message ?? '')) {
				throw new Error(
					`${label}, ${START_LABELS[STARTS[index]]}: expected ${error}, got ${run.result.error?.message ?? 'no error'}`,
				);
			}
			figures[index].seconds.push(run.seconds);
			figures[index].requests.push(run.requests);
			figures[index].valid.push(run.valid);
		}
	}
	const cells = figures.map(({ seconds: times, requests, valid }) => {
		const range =
			Math.min(...requests) === Math.max(...requests)
				? ''
				: ` (${Math.min(...requests)}-${Math.max(...requests)})`;
		// Per-item model: how many of them asked for the model that exists (paid when answered).
		const ofValid = model.startsWith('=') ? `, ${median(valid)} to ${GOOD_MODEL}` : '';
		return `${median(requests)} ${median(requests) === 1 ? 'request' : 'requests'}${range}${ofValid}, ${seconds(median(times))}`;
	});
	return [label, ...cells];
}

function printTable(rows: string[][]): void {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	for (const row of rows)
		console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`.trimEnd());
}

async function failures(remote: LocalService): Promise<void> {
	if (Object.values(keys).includes(BAD_KEY))
		throw new Error(`${BAD_KEY} is a key of dev/service/config.json`);
	console.log(
		`\n(e) Would a slow start pay off? On Error: Stop Workflow, ${FAILING_ITEMS} items, service ${REMOTE_MS} ms; ` +
			'requests the service received (its own log) and elapsed time, median of ' +
			`${FAILURE_ROUNDS} rounds taking turns (the range of requests when they differed). A slow start is ` +
			'the node run on the first item alone, then at Auto on the rest: one round trip before Auto.',
	);
	const cases: FailureCase[] = [
		{
			label: 'a key the service does not know (401)',
			apiKey: BAD_KEY,
			model: GOOD_MODEL,
			error: /API key/,
		},
		{
			label: `model "${BAD_MODEL}" on every item (404)`,
			apiKey: keys.default,
			model: BAD_MODEL,
			error: /does not exist/,
		},
		{
			// The node checks a batch's models against the key's list before it sends (GET /models, one request).
			label: `model "${BAD_MODEL}" on item ${BAD_ITEM} only (checked first)`,
			apiKey: keys.default,
			model: `={{ $json.n === ${BAD_ITEM} ? "${BAD_MODEL}" : "${GOOD_MODEL}" }}`,
			error: /is not among the \d+ models this API key may call/,
		},
	];
	const rows = [['failure', ...STARTS.map((start) => START_LABELS[start])]];
	for (const failure of cases) rows.push(await failureRow(remote, failure));
	printTable(rows);
	console.log(
		[
			'  A key the service does not know is refused at once, before the latency (a remote service answers it after',
			"  a network round trip, so Auto's count there is no lower); a model that does not exist is answered after it.",
			"  A failed request's slot passes to the next item only after the failure has stopped the run, so Concurrency",
			'  1 sends the failed request alone and Auto its first 64 (on a key new to the process; 128 on one that answered fine).',
			'  Billing (SERVICE.md): usage is metered in tokens, usage.total_tokens of a reply being the figure billed;',
			'  an error answer (401, 404) carries no usage and SERVICE.md names no charge for one, so the failed requests',
			`  above cost requests (rate limit, logs), not tokens. Item ${BAD_ITEM}'s model is refused before the batch is`,
			'  sent (the one request counted is the model list), so no reply is paid for and dropped.',
		].join('\n'),
	);
}

/** Auto against a slow start over `count` good items: median elapsed of `COST_ROUNDS` rounds taking turns. */
async function costRow(service: LocalService, label: string, count: number): Promise<string[]> {
	const engine = engineFor(service.baseUrl, keys.default);
	const starts: Start[] = ['auto', 'slow'];
	const run = (start: Start, size: number) => async () => {
		const result = await runBatch(engine, GOOD_MODEL, size, start);
		answeredItems(`${START_LABELS[start]}, ${label}`, size, result, contentOf);
		return result;
	};
	for (const start of starts) await run(start, WARM_UP_ITEMS)();
	const times = starts.map(() => [] as number[]);
	for (let round = 0; round < COST_ROUNDS; round++) {
		for (let turn = 0; turn < starts.length; turn++) {
			const index = (round + turn) % starts.length;
			times[index].push((await measured(service, run(starts[index], count))).seconds);
		}
	}
	const [auto, slow] = times.map((values) => median(values));
	const cell = (values: number[]) =>
		`${seconds(median(values))} (${Math.min(...values).toFixed(2)} to ${seconds(Math.max(...values))})`;
	const difference = `${slow >= auto ? '+' : '-'}${seconds(Math.abs(slow - auto))}`;
	return [label, ...times.map(cell), difference, (slow / auto).toFixed(2)];
}

async function costs(fast: LocalService, slow: LocalService, remote: LocalService): Promise<void> {
	console.log(
		`\n(e) What a slow start costs batches that succeed: median elapsed of ${COST_ROUNDS} rounds taking turns (fastest to slowest)`,
	);
	const rows = [['batch', START_LABELS.auto, START_LABELS.slow, 'difference', 'slow start / Auto']];
	rows.push(await costRow(slow, '(a) 128 items, 50 ms', 128));
	rows.push(await costRow(fast, '(b) 1,000 items, instant', 1000));
	rows.push(await costRow(remote, `128 items, ${REMOTE_MS} ms`, 128));
	rows.push(await costRow(remote, `1,000 items, ${REMOTE_MS} ms`, 1000));
	printTable(rows);
}

/** Part (e): on `fast` (instant) and `slow` (50 ms) as parts (a) and (b) use them, and a service of its own at 300 ms. */
export async function partE(fast: LocalService, slow: LocalService): Promise<void> {
	const remote = await startService({ args: ['--latency-ms', String(REMOTE_MS)] });
	try {
		await failures(remote);
		await costs(fast, slow, remote);
	} finally {
		await remote.stop();
	}
}
