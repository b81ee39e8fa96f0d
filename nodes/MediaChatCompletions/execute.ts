import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { WORDS } from './errors';
import { ACTIONS, itemRequest } from './actions';
import type { ItemJob } from './actions/item';
import { executeVideo } from './actions/video/execute';
import type { Resource } from './properties';
import { OPERATIONS } from './properties';
import type { BatchJob } from '../../engine';
import { media, runItems } from '../../engine';

/** An item checked (`job`: what it sends once admitted) or refused before anything is sent (`error`). */
interface MediaJob extends BatchJob {
	job?: ItemJob;
}

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
): MediaJob {
	try {
		const request = itemRequest(
			operation,
			context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
			context.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>,
		);
		const job = ACTIONS[operation].job({ context, itemIndex, request });
		return { items: [itemIndex], model: request.model, job };
	} catch (error) {
		return { items: [itemIndex], error };
	}
}

/**
 * Runs the operation on every input item (`runItems`): each item is one request, sent at the same time as the
 * others (Auto: as many in flight as the key takes), each file read only once its request is admitted. With On
 * Error: Stop Workflow every item is checked before anything is sent, and the first failure stops the rest;
 * with Continue, a failed item becomes an error item in its place. The output keeps the order of the input,
 * each item's outputs (an image each) in a row.
 */
export async function executeMedia(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (this.getNodeParameter('resource', 0) === 'video') return await executeVideo.call(this);
	return await runItems<MediaJob>(this, {
		words: WORDS,
		outputs: 1,
		start: (connection, run) => {
			const client = new media.MediaClient(this, connection, run);
			const operation = operationOf(this);
			return {
				read: (itemIndex) => prepare(this, operation, itemIndex),
				send: async ({ job, error }) => {
					if (job === undefined) throw error;
					return [await job.run(client)];
				},
			};
		},
	});
}
