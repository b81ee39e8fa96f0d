import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { VideoItemJob, VideoOperation } from './job';
import { videoJob } from './job';
import { WORDS } from '../../errors';
import type { BatchJob } from '../../../../engine';
import { media, runItems } from '../../../../engine';

interface VideoBatchJob extends BatchJob {
	job?: VideoItemJob;
}

/**
 * Runs a video operation on every input item (`runItems`): each item's job starts at once (every Generate
 * submitted before any waits, within the key's limits), the waits polled side by side through the run; with
 * Continue, a failed item becomes an error item in its place.
 */
export async function executeVideo(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as VideoOperation;
	return await runItems<VideoBatchJob>(this, {
		words: WORDS,
		outputs: 1,
		start: (connection, run) => {
			const client = new media.MediaClient(this, connection, run);
			return {
				read: (itemIndex) => {
					try {
						const { job, model } = videoJob(this, operation, itemIndex, connection.baseUrl);
						return { items: [itemIndex], job, ...(model === undefined ? {} : { model }) };
					} catch (error) {
						return { items: [itemIndex], error };
					}
				},
				send: async ({ job, error }) => {
					if (job === undefined) throw error;
					return [await job(client)];
				},
			};
		},
	});
}
