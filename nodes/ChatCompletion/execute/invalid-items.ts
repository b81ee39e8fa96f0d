import type { INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Job } from './plan-jobs';
import type { Connection } from '../../../engine/connection';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { toNodeError } from '../../../engine/problems/node-error';

/** How many invalid items the message quotes in full; the rest are counted. */
const QUOTED = 3;

/**
 * The error for On Error: Stop Workflow when items are invalid: nothing was sent, so no reply is paid for
 * and thrown away. One invalid item gives its own error; several are listed (field, item, fix).
 */
export function invalidItemsError(
	node: INode,
	invalid: Job[],
	connection: Connection,
): NodeApiError | NodeOperationError {
	const problems = invalid.flatMap((job) =>
		job.items.map((itemIndex) => ({ itemIndex, problem: describeProblem(job.error, connection) })),
	);
	if (problems.length === 1) {
		const [{ itemIndex, problem }] = problems;
		return toNodeError(node, problem, itemIndex);
	}
	const quoted = problems
		.slice(0, QUOTED)
		.map(({ itemIndex, problem }) => `item ${itemIndex}: ${problem.message}`);
	const rest = problems.length - quoted.length;
	const list = rest > 0 ? `${quoted.join('; ')}; and ${rest} more` : quoted.join('; ');
	return new NodeOperationError(
		node,
		`${problems.length} items are invalid, so nothing was sent: ${list}`,
		{
			description: `${problems
				.slice(0, QUOTED)
				.map(({ itemIndex, problem }) => `Item ${itemIndex}: ${problem.description}`)
				.join(' ')} Fix them and run again, or set On Error to Continue to send the valid items.`,
			itemIndex: problems[0].itemIndex,
		},
	);
}
