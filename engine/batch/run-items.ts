import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { invalidItemsError } from './invalid-items';
import type { BatchJob } from './job';
import { toolFailure, toolFailureMessage } from './tool-failure';
import type { Connection } from '../connection';
import { readConnection } from '../connection';
import type { NodeWords } from '../failures/kind';
import { describeProblem } from '../problems/describe-problem';
import { errorItem, toNodeError } from '../problems/node-error';
import type { Problem } from '../problems/problem';
import type { Run } from '../run/run';
import { startRun } from '../run/start';

/** Reading items is synchronous work in n8n: after this many ms the event loop gets a turn, so requests leave. */
const READ_SLICE_MS = 10;

/** What a node does with its batch once the run has started: its own part of every item. */
export interface BatchWork<J extends BatchJob> {
	/** Reads and checks one input item: its job, or nothing when the item waits for `rest` (a tool call's answer). */
	read(itemIndex: number): J | undefined | Promise<J | undefined>;
	/** The jobs of the items held back, once every item is read. */
	rest?(): J[];
	/**
	 * With On Error: Stop Workflow, when no job is invalid: a check of the whole batch before anything is sent,
	 * giving the jobs it finds invalid (their `error` set). It may throw, and then nothing is sent.
	 */
	check?(jobs: J[]): Promise<J[]>;
	/** Sends one job (a job with `error` throws it) and maps its answer: its items for each output, in order. */
	send(job: J): Promise<INodeExecutionData[][]>;
}

/** How a node runs a batch: its words, its outputs, and its work (`start`, given the run). */
export interface BatchSettings<J extends BatchJob> {
	words: NodeWords;
	/** How many outputs the node has: error items go on the first. */
	outputs: number;
	/** The workflow streams its response to a client (a streaming client reads only an error's description). */
	streaming?: boolean;
	/** An AI Agent runs the node as a tool: a failure is the tool's answer, its message carrying the fix. */
	asTool?: boolean;
	start(connection: Connection, run: Run): BatchWork<J>;
}

/** What one job gave: its items per output, or what went wrong (`stopped`: cut short by another's failure). */
type Outcome = { outputs: INodeExecutionData[][] } | { error: unknown; stopped?: true };

/** The outputs of a node, the first holding `items`. */
const outputsWith = (items: INodeExecutionData[], outputs: number): INodeExecutionData[][] => [
	items,
	...Array.from({ length: outputs - 1 }, () => []),
];

/**
 * When the node cannot run at all (its credential): with On Error: Continue every input item gets the failure,
 * as a key the service refused does; otherwise the node fails (as a tool, with the fix in the message).
 */
function credentialFailed<J extends BatchJob>(
	context: IExecuteFunctions,
	{ words, outputs, streaming, asTool }: BatchSettings<J>,
	error: unknown,
): INodeExecutionData[][] {
	const problem = describeProblem(error, { words, streaming });
	if (context.continueOnFail() && !asTool) {
		const routeErrors = context.getNode().onError === 'continueErrorOutput';
		const items = context
			.getInputData()
			.map((_, itemIndex) => errorItem(context, problem, itemIndex, routeErrors));
		return outputsWith(items, outputs);
	}
	const message = asTool ? toolFailureMessage(problem) : problem.message;
	throw toNodeError(context.getNode(), { ...problem, message });
}

/** Reads every item, in order, handing each job to `take` as it is read; yields to the event loop now and then. */
async function readItems<J extends BatchJob>(
	count: number,
	read: BatchWork<J>['read'],
	take: (job: J) => void,
): Promise<void> {
	let sliceStart = Date.now();
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const job = await read(itemIndex);
		if (job !== undefined) take(job);
		if (Date.now() - sliceStart >= READ_SLICE_MS) {
			await sleep(0);
			sliceStart = Date.now();
		}
	}
}

/**
 * Runs a node's input items through one run: the node prepares each item (`read`), sends a job and maps its
 * answer (`send`); the rest is the same for every action node. A credential that cannot be read fails every
 * item. With On Error: Stop Workflow every item is read and checked before anything is sent, the invalid ones
 * named in one error with nothing sent; then the first failure stops the spending (no request starts, those in
 * flight end) and the node fails with the run's stop note. In the Continue modes each job is sent as soon as it
 * is read, and a failed item becomes an error item in its place. Jobs in flight follow the run (Concurrency,
 * Auto); the output keeps the order of the input.
 */
export async function runItems<J extends BatchJob>(
	context: IExecuteFunctions,
	settings: BatchSettings<J>,
): Promise<INodeExecutionData[][]> {
	let connection: Connection;
	let run: Run;
	try {
		connection = await readConnection(context);
		run = startRun(context, connection);
	} catch (error) {
		return credentialFailed(context, settings, error);
	}
	const work = settings.start(connection, run);
	const failFast = !context.continueOnFail();
	const jobs: J[] = [];
	const outcomes: Array<Promise<Outcome>> = [];
	const send = (job: J) => {
		jobs.push(job);
		const sent = async (): Promise<Outcome> => {
			try {
				// Mapped at once, so the raw answer is not held until every job is done.
				return { outputs: await work.send(job) };
			} catch (error) {
				if (run.stoppedBy(error)) return { error, stopped: true };
				// With Stop Workflow, the first failure stops the spending: no request starts, those in flight end
				// (their replies would be thrown away with the run).
				if (failFast) run.stop();
				return { error };
			}
		};
		outcomes.push(run.admit(sent));
	};
	const held: J[] = [];
	await readItems(
		context.getInputData().length,
		(itemIndex) => work.read(itemIndex),
		(job) => (failFast ? held.push(job) : send(job)),
	);
	const rest = work.rest?.() ?? [];
	if (failFast) {
		const planned = held.concat(rest);
		await checkAll(context, settings, work, planned, connection);
		planned.sort((a, b) => a.items[0] - b.items[0]).forEach(send);
	} else {
		rest.forEach(send);
	}
	return collect(context, settings, jobs, await Promise.all(outcomes), { connection, run });
}

/** With Stop Workflow, before anything is sent: throws the error naming every invalid job, if any. */
async function checkAll<J extends BatchJob>(
	context: IExecuteFunctions,
	{ words, streaming, asTool }: BatchSettings<J>,
	work: BatchWork<J>,
	planned: J[],
	connection: Connection,
): Promise<void> {
	let invalid = planned.filter((job) => job.error !== undefined);
	if (invalid.length === 0 && work.check) invalid = await work.check(planned);
	if (invalid.length === 0) return;
	const problemContext = { ...connection, words, streaming };
	if (!asTool) throw invalidItemsError(context.getNode(), invalid, problemContext);
	// An agent's tool call is one item: the model gets what is wrong and the fix, no item number.
	throw toolFailure(context.getNode(), describeProblem(invalid[0].error, problemContext));
}

/** The node's outputs from every job's outcome, in the order of the input items. */
function collect<J extends BatchJob>(
	context: IExecuteFunctions,
	{ words, outputs, streaming, asTool }: BatchSettings<J>,
	jobs: J[],
	outcomes: Outcome[],
	{ connection, run }: { connection: Connection; run: Run },
): INodeExecutionData[][] {
	const failFast = !context.continueOnFail() || asTool === true;
	const routeErrors = context.getNode().onError === 'continueErrorOutput';
	const signal = context.getExecutionCancelSignal?.();
	const order = jobs.map((_, index) => index).sort((a, b) => jobs[a].items[0] - jobs[b].items[0]);
	const result: INodeExecutionData[][] = outputsWith([], outputs);
	for (const index of order) {
		const job = jobs[index];
		const outcome = outcomes[index];
		if ('outputs' in outcome) {
			outcome.outputs.forEach((items, output) => result[output].push(...items));
			continue;
		}
		// Items cancelled with the execution, or cut short when a failure stopped the run, give nothing.
		if (signal?.aborted || outcome.stopped) continue;
		const problem: Problem = describeProblem(outcome.error, {
			...connection,
			words,
			model: job.model,
			streaming,
		});
		if (failFast && run.stopped && jobs.length > 1) {
			const answered = jobs
				.filter((_, other) => 'outputs' in outcomes[other])
				.reduce((count, other) => count + other.items.length, 0);
			problem.description += ` ${run.stopNote(answered)}`;
		}
		if (asTool) throw toolFailure(context.getNode(), problem);
		for (const itemIndex of job.items) {
			if (failFast) throw toNodeError(context.getNode(), problem, itemIndex);
			result[0].push(errorItem(context, problem, itemIndex, routeErrors));
		}
	}
	return result;
}
