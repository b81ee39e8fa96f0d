/**
 * The queue-mode benchmark (`npm run bench -- queue`; scripts/bench-queue.mts): real n8n in queue mode (Redis, `n8n start` and 4
 * `n8n worker` processes), the packed package installed as n8n installs community packages (the end-to-end
 * tests' fixtures, dev/n8n). 4 webhook executions at once, each Webhook -> Split Out (200 items) ->
 * one node, all on ONE key that the local service limits to 20 requests started per second and 8 in flight
 * (429 with a fractional Retry-After beyond either), service time 50 ms: ideal 800 / 20 = 40 s. In one run:
 * the Chat Completion node at its defaults, n8n's HTTP Request node at its defaults (the request of
 * scripts/bench/contenders.mts: POST, JSON body from an expression, Header Auth), and the HTTP Request node
 * with On Error: Continue. Prints per contender: elapsed against the ideal, failed executions (as n8n
 * recorded them), items without their reply, 429s, retries (requests beyond one per item), the most requests
 * in flight, the executions each worker ran; for ours also in flight per second. Target for ours: 0 errors
 * and <= 1.5x the ideal. Asserts nothing. It loads nothing of n8n's engine harness (dev/n8n-core), whose
 * settings for its own process would reach the n8n processes started here.
 */
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';

import type { INodeExecutionData, IVersionedNodeType } from 'n8n-workflow';

import { packPackage } from '../../dev/n8n/community-package.cts';
import { localCredential } from '../../dev/n8n/examples.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { baseNodeType } from '../../dev/n8n-core/base-types.cts';
import type { LocalService, TrafficReport } from '../../dev/service-client/local-service.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import type { RealN8n } from '../../dev/n8n/real-n8n.cts';
import { prepareUserFolder, useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { executionsStarted } from '../../dev/n8n/process.cts';
import { useRedis } from '../../dev/n8n/redis.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { questionsBehindWebhook } from '../../dev/n8n/workflows.cts';
import {
	CHAT_NODE,
	chatParameters,
	contentOf,
	HEADER_AUTH,
	headerAuth,
	HTTP_REQUEST_NODE,
	httpRequestParameters,
	httpRequestReply,
} from './chat-request.mts';
import { inFlightPlot } from './in-flight-plot.mts';
import { withJestFixtures } from './jest-fixtures.mts';
import { arrivalsOf, drained } from './traffic.mts';

const WORKERS = 4;
const EXECUTIONS = 4;
const ITEMS = 200;
const REQUESTS_PER_SECOND = 20;
const IN_FLIGHT = 8;
const LATENCY_MS = 50;
const IDEAL_SECONDS = (EXECUTIONS * ITEMS) / REQUESTS_PER_SECOND;
const TARGET = 1.5;

const root = resolve(import.meta.dirname, '..', '..');
const since = (started: number) => (performance.now() - started) / 1000;

interface Contender {
	label: string;
	/** The webhook's path. */
	path: string;
	/** Webhook -> Split Out -> the contender's node. */
	workflow: WorkflowToImport;
	reply(item: INodeExecutionData): string | undefined;
}

interface Figures {
	seconds: number;
	failedExecutions: number;
	/** Items that did not come back with the reply to their own prompt, failed executions' items included. */
	withoutReply: number;
	traffic: TrafficReport;
	retries: number;
	perWorker: number[];
	arrivals: number[];
}

function contenders(
	service: LocalService,
	credentials: Record<'chat' | 'header', { id: string; name: string }>,
): Contender[] {
	const node = (name: string, type: string, typeVersion: number): WorkflowNode => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters: {},
	});
	const httpRequestVersion =
		(baseNodeType('HttpRequest', 'HttpRequest') as IVersionedNodeType).description.defaultVersion ??
		1;
	const httpRequest: WorkflowNode = {
		...node('HTTP Request', HTTP_REQUEST_NODE, httpRequestVersion),
		parameters: httpRequestParameters(service.baseUrl),
		credentials: { [HEADER_AUTH]: credentials.header },
	};
	const ours: WorkflowNode = {
		...node('Chat Completion', CHAT_NODE, 1),
		parameters: chatParameters(),
		credentials: { chatCompletionsApi: credentials.chat },
	};
	const contender = (
		label: string,
		path: string,
		last: WorkflowNode,
		reply: Contender['reply'],
	): Contender => ({
		label,
		path,
		workflow: questionsBehindWebhook(path, last),
		reply,
	});
	return [
		contender('Chat Completion (defaults)', 'bench-queue-ours', ours, contentOf),
		contender('HTTP Request (defaults)', 'bench-queue-http-request', httpRequest, httpRequestReply),
		contender(
			'HTTP Request (On Error: Continue)',
			'bench-queue-http-continue',
			{ ...httpRequest, onError: 'continueRegularOutput' },
			httpRequestReply,
		),
	];
}

const startedExecutions = (n8n: RealN8n) => n8n.workers.map(executionsStarted);

/** How n8n recorded the workflow's executions, once none is still running (the webhook may answer first). */
async function statuses(rest: N8nRest, workflowId: string): Promise<string[]> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const found = (await rest.executions(workflowId)).map((execution) => execution.status);
		const done =
			found.length >= EXECUTIONS && !found.some((status) => ['new', 'running'].includes(status));
		if (done || Date.now() > deadline) return found;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The 4 executions of one contender at once, on a cleared service. */
async function run(
	n8n: RealN8n,
	rest: N8nRest,
	service: LocalService,
	contender: Contender,
): Promise<Figures> {
	await drained(service, 'limited');
	await service.clearRequests();
	const before = startedExecutions(n8n);
	const started = performance.now();
	const answered = await Promise.all(
		Array.from({ length: EXECUTIONS }, async (_, execution) => {
			const prompts = Array.from(
				{ length: ITEMS },
				(_, item) => `Execution ${execution + 1}, item ${item + 1}`,
			);
			const response = await n8n.webhook(contender.path, {
				questions: prompts.map((prompt) => ({ prompt })),
			});
			const text = await response.text();
			if (!response.ok) return 0;
			const items = JSON.parse(text) as INodeExecutionData['json'][];
			return items.filter((json, index) => contender.reply({ json }) === prompts[index]).length;
		}),
	);
	const seconds = since(started);
	await drained(service, 'limited');
	const traffic = (await service.traffic()).limited;
	const recorded = await statuses(rest, contender.workflow.id);
	return {
		seconds,
		failedExecutions: recorded.filter((status) => status !== 'success').length,
		withoutReply: EXECUTIONS * ITEMS - answered.reduce((sum, count) => sum + count, 0),
		traffic,
		retries: Math.max(0, traffic.admitted + traffic.rejected - EXECUTIONS * ITEMS),
		perWorker: startedExecutions(n8n).map((count, index) => count - before[index]),
		arrivals: await arrivalsOf(service, keys.limited),
	};
}

/** Elapsed against the ideal, e.g. `1.14x`: only meaningful when every item got its reply. */
const ofIdeal = (figures: Figures) => `${(figures.seconds / IDEAL_SECONDS).toFixed(2)}x`;

function printFigures(label: string, figures: Figures): void {
	const { traffic } = figures;
	console.log(
		`\n${label}: ${figures.seconds.toFixed(1)} s${figures.withoutReply === 0 ? ` = ${ofIdeal(figures)} the ideal` : ' until the last webhook answered'}; ` +
			`failed executions ${figures.failedExecutions} of ${EXECUTIONS}; items without their reply ${figures.withoutReply} of ${EXECUTIONS * ITEMS}; ` +
			`429s received ${traffic.rejected} (window ${traffic.rejectedBy.window}, in flight ${traffic.rejectedBy.inFlight}); ` +
			`retries ${figures.retries}; at most ${traffic.maxInFlight} in flight; executions per worker ${figures.perWorker.join(', ')}`,
	);
}

function printSummary(rows: Array<[string, Figures]>): void {
	const header = [
		'contender',
		'elapsed',
		'elapsed / ideal',
		'failed executions',
		'items without reply',
		'429s',
		'retries',
		'most in flight',
	];
	const lines = [
		header,
		...rows.map(([label, figures]) => [
			label,
			`${figures.seconds.toFixed(1)} s`,
			figures.withoutReply === 0 ? ofIdeal(figures) : 'items lost',
			`${figures.failedExecutions} of ${EXECUTIONS}`,
			`${figures.withoutReply} of ${EXECUTIONS * ITEMS}`,
			String(figures.traffic.rejected),
			String(figures.retries),
			String(figures.traffic.maxInFlight),
		]),
	];
	const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column].length)));
	console.log(
		`\nSummary (ideal ${IDEAL_SECONDS.toFixed(1)} s; target for ours: 0 errors and <= ${TARGET}x the ideal)`,
	);
	for (const line of lines)
		console.log(
			`  ${line.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`.trimEnd(),
		);
}

export async function benchQueue(): Promise<void> {
	const started = performance.now();
	console.log(
		`\nQueue mode in real n8n: Redis, main + ${WORKERS} workers, ${EXECUTIONS} webhook executions at once, each ` +
			`Webhook -> Split Out (${ITEMS} items) -> the node; ONE key limited to ${REQUESTS_PER_SECOND} requests/s and ` +
			`${IN_FLIGHT} in flight, service ${LATENCY_MS} ms, model echo-1; ideal ${EXECUTIONS * ITEMS} / ${REQUESTS_PER_SECOND} = ${IDEAL_SECONDS.toFixed(1)} s`,
	);
	const userFolder = join(root, '.cache', 'bench', 'user-folder');
	const bin = process.env.E2E_N8N_BIN;
	if (bin === undefined) throw new Error('E2E_N8N_BIN is not set: run npm run bench');
	await prepareUserFolder(bin, packPackage(join(root, '.cache', 'bench')), userFolder);
	process.env.E2E_N8N_USER_FOLDER = userFolder;
	const service = await startService({
		args: [
			'--rate-limit',
			`limited=${REQUESTS_PER_SECOND}/s,${IN_FLIGHT}`,
			'--latency-ms',
			String(LATENCY_MS),
		],
	});
	try {
		const chat = localCredential(keys.limited, service.baseUrl);
		const header = {
			id: 'bench-header-auth',
			name: 'Bearer key (Header Auth)',
			type: HEADER_AUTH,
			data: headerAuth(keys.limited),
		};
		const entries = contenders(service, {
			chat: { id: chat.id, name: chat.name },
			header: { id: header.id, name: header.name },
		});
		await withJestFixtures(
			() => {
				const redisPort = useRedis();
				return useRealN8n(() => ({
					credentials: [chat, header],
					workflows: entries.map((entry) => entry.workflow),
					redisPort: redisPort(),
					workers: WORKERS,
				}));
			},
			async (n8n) => {
				console.log(
					`  set up (package packed, n8n and ${WORKERS} workers started, workflows published) in ${since(started).toFixed(0)} s`,
				);
				const rest = await N8nRest.login(n8n().url, OWNER);
				const rows: Array<[string, Figures]> = [];
				for (const entry of entries) {
					const figures = await run(n8n(), rest, service, entry);
					printFigures(entry.label, figures);
					// Ours (the first): how it kept to the limit, second by second.
					if (entry === entries[0]) {
						for (const line of inFlightPlot(
							figures.traffic,
							figures.arrivals,
							figures.traffic.timeline[0].at,
						))
							console.log(`  ${line}`);
					}
					rows.push([entry.label, figures]);
				}
				printSummary(rows);
			},
		);
	} finally {
		await service.stop();
	}
	console.log(
		`  took ${since(started).toFixed(0)} s (n8n, workers and service started and stopped included)`,
	);
}
