import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toNodeError } from '../problems/node-error';
import type { Problem } from '../problems/problem';

/**
 * The message a failed tool call gives the agent, which passes the model nothing else: what happened,
 * the service's own words and the fix, without "(item 0)", which means nothing to a model.
 */
export function toolFailureMessage(problem: Problem): string {
	return `${problem.message}. ${problem.description}`;
}

/** The error a failed tool call throws: its message is all the agent's model gets (see toolFailureMessage). */
export function toolFailure(node: INode, problem: Problem): NodeApiError | NodeOperationError {
	return toNodeError(node, { ...problem, message: toolFailureMessage(problem) });
}
