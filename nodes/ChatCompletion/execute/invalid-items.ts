import type { INode, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Job } from './plan-jobs';
import type { ProblemContext } from '../../../engine';
import { describeProblem, toNodeError } from '../../../engine';

/** How many invalid items the message quotes in full; the rest are counted. */
const QUOTED = 3;

/**
 * The error for On Error: Stop Workflow when items are invalid: nothing was sent, so no reply is paid for
 * and thrown away. One invalid item gives its own error; several are listed (field, item, fix).
 */
export function invalidItemsError(
	node: INode,
	invalid: Job[],
	context: ProblemContext,
): NodeApiError | NodeOperationError {
	const problems = invalid.flatMap((job) =>
		job.items.map((itemIndex) => ({ itemIndex, problem: describeProblem(job.error, context) })),
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
	const error = new NodeOperationError(
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
	// An expression n8n could not resolve names its parameter: the editor shows it, as for one item.
	const parameter = (problems[0].problem.raisedByN8n as { context?: { parameter?: unknown } })
		?.context?.parameter;
	if (typeof parameter === 'string') error.context.parameter = parameter;
	return error;
}
