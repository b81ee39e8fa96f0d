import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { WORDS } from './errors';
import { ACTIONS, itemRequest } from './actions';
import type { ItemJob } from './actions/item';
import type { Resource } from './properties';
import { OPERATIONS } from './properties';
import type { Connection } from '../../engine';
import { media, problems, readConnection, startRun } from '../../engine';

/** An item checked (its job) or refused before anything is sent (its error). */
type Prepared = { job: ItemJob } | { error: unknown };

/** What an item's request gave: its output items, or what went wrong (`stopped`: cut short by another's failure). */
type Outcome = { items: INodeExecutionData[] } | { error: unknown; stopped?: true };

/** The operation the node runs: Resource and Operation are the same for every item (no expressions). */
function operationOf(context: IExecuteFunctions): media.MediaOperation {
	const resource = context.getNodeParameter('resource', 0) as Resource;
	const operation = context.getNodeParameter('operation', 0) as string;
	return (OPERATIONS[resource] as Record<string, media.MediaOperation>)[operation];
}

/** Reads and checks one item's parameters and options (not its files' bytes): a problem stays with the item. */
function prepare(
	context: IExecuteFunctions,
	operation: media.MediaOperation,
	itemIndex: number,
): Prepared {
	try {
		const request = itemRequest(
			operation,
			context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
			context.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>,
		);
		return { job: ACTIONS[operation].job({ context, itemIndex, request }) };
	} catch (error) {
		return { error };
	}
}

/**
 * Runs the operation on every input item: each item is one request, sent at the same time as the others
 * (Auto: as many in flight as the key takes), each file read only once its request is admitted. With On
 * Error: Stop Workflow every item is checked before anything is sent, and the first failure stops the rest;
 * with Continue, a failed item becomes an error item in its place. The output keeps the order of the input,
 * each item's outputs (an image each) in a row.
 */
export async function executeMedia(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const routeErrors = this.getNode().onError === 'continueErrorOutput';
	const count = this.getInputData().length;
	let connection: Connection;
	try {
		connection = await readConnection(this);
	} catch (error) {
		const problem = problems.describeProblem(error, { words: WORDS });
		if (!this.continueOnFail()) throw problems.toNodeError(this.getNode(), problem);
		return [
			Array.from({ length: count }, (_, itemIndex) =>
				problems.errorItem(this, problem, itemIndex, routeErrors),
			),
		];
	}
	const run = startRun(this, connection);
	const client = new media.MediaClient(this, connection, run);
	const operation = operationOf(this);
	const failFast = !this.continueOnFail();
	const prepared = Array.from({ length: count }, (_, itemIndex) =>
		prepare(this, operation, itemIndex),
	);
	const describe = (error: unknown, model?: string) =>
		problems.describeProblem(error, { ...connection, model, words: WORDS });
	if (failFast) {
		const invalid = prepared.findIndex((item) => 'error' in item);
		if (invalid !== -1) {
			const { error } = prepared[invalid] as { error: unknown };
			throw problems.toNodeError(this.getNode(), describe(error), invalid);
		}
	}
	const outcomes = await Promise.all(
		prepared.map(async (item): Promise<Outcome> => {
			if ('error' in item) return item;
			try {
				return { items: await item.job.run(client) };
			} catch (error) {
				if (run.stoppedBy(error)) return { error, stopped: true };
				// With Stop Workflow, the first failure stops the spending: no request starts, those in flight end.
				if (failFast) run.stop();
				return { error };
			}
		}),
	);
	const signal = this.getExecutionCancelSignal?.();
	const output: INodeExecutionData[] = [];
	for (const [itemIndex, outcome] of outcomes.entries()) {
		if ('items' in outcome) {
			output.push(...outcome.items);
			continue;
		}
		// Items cancelled with the execution, or cut short when a failure stopped the run, give nothing.
		if (signal?.aborted || ('stopped' in outcome && outcome.stopped)) continue;
		const item = prepared[itemIndex];
		const problem = describe(outcome.error, 'job' in item ? item.job.request.model : undefined);
		if (failFast) throw problems.toNodeError(this.getNode(), problem, itemIndex);
		output.push(problems.errorItem(this, problem, itemIndex, routeErrors));
	}
	return [output];
}
