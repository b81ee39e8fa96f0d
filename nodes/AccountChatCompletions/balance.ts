import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { WORDS } from './errors';
import type { Connection } from '../../engine';
import { keyBalance, problems, readConnection, startRun } from '../../engine';

/**
 * Get Balance: one request round (each endpoint that may tell it, at once) for the whole run, whatever
 * the number of input items, and one output item paired with the first: `remaining`, `used`, `limit`,
 * `currency` or `unit`, and `source`. A service that tells none fails in the words of the failure table.
 */
export async function executeGetBalance(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	let connection: Connection | undefined;
	try {
		connection = await readConnection(this);
		const options = this.getNodeParameter('options', 0, {}) as Record<string, unknown>;
		const balance = await keyBalance(this, connection, startRun(this, connection), options);
		return [[{ json: { ...balance }, pairedItem: { item: 0 } }]];
	} catch (error) {
		const problem = problems.describeProblem(error, { ...connection, words: WORDS });
		if (!this.continueOnFail()) throw problems.toNodeError(this.getNode(), problem);
		const routeErrors = this.getNode().onError === 'continueErrorOutput';
		return [[problems.errorItem(this, problem, 0, routeErrors)]];
	}
}
