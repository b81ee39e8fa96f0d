import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';

import type { Problem } from './problem';

function withItem(message: string, itemIndex: number | undefined): string {
	return itemIndex === undefined ? message : `${message} (item ${itemIndex})`;
}

/**
 * An error n8n raised itself, as n8n made it: its message, description and context (the parameter, the
 * expression's details), with the item. n8n's node errors pass as they are; others (an ExpressionError)
 * become a NodeOperationError that shares their context, since the error output takes only node errors.
 */
function raisedByN8n(
	node: INode,
	error: NonNullable<Problem['raisedByN8n']>,
	problem: Problem,
	itemIndex: number | undefined,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		// A streaming client sees only the description.
		error.description = problem.description;
		return error;
	}
	// The new error shares the context, which its constructor sets the item and run of: keep n8n's.
	const { context } = error as { context?: { itemIndex?: number; runIndex?: number } };
	return new NodeOperationError(node, error, {
		description: problem.description,
		itemIndex: itemIndex ?? context?.itemIndex,
		runIndex: context?.runIndex,
	});
}

/** The error n8n shows (and routes to the error output): message, description, HTTP code, type and code. */
export function toNodeError(
	node: INode,
	problem: Problem,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (problem.raisedByN8n) return raisedByN8n(node, problem.raisedByN8n, problem, itemIndex);
	const message = withItem(problem.message, itemIndex);
	if (problem.kind === 'input') {
		return new NodeOperationError(node, message, { description: problem.description, itemIndex });
	}
	const details: JsonObject = {
		message: problem.serviceMessage ?? problem.message,
		type: problem.type ?? null,
		code: problem.code ?? null,
	};
	const error = new NodeApiError(node, details, {
		message,
		description: problem.description,
		httpCode: problem.httpCode === undefined ? undefined : String(problem.httpCode),
		itemIndex,
		failure: problem.failure,
	});
	// n8n swaps a message that names a system error code (ECONNREFUSED, ...) for its generic headline
	// ("perhaps it is offline"), which drops the URL, the attempts and the fix: ours says more.
	error.message = message;
	// Without a description n8n would take the service's words from the details, and repeat them under a
	// message that already quotes them.
	if (problem.description === '') error.description = null;
	return error;
}

/** The item a failed input item becomes with "On Error: Continue". */
export function errorItemJson(problem: Problem, itemIndex: number): IDataObject {
	return {
		error: withItem(problem.message, itemIndex),
		error_details: {
			http_code: problem.httpCode ?? null,
			type: problem.type ?? null,
			code: problem.code ?? null,
			description: problem.description,
			service_message: problem.serviceMessage ?? null,
			...problem.details,
		},
	};
}

/** A failed item under On Error: Continue, on the regular output or (`routeErrors`) the error output. */
export function errorItem(
	context: { getNode(): INode },
	problem: Problem,
	itemIndex: number,
	routeErrors: boolean,
): INodeExecutionData {
	return {
		json: errorItemJson(problem, itemIndex),
		// With the error output on, n8n routes items that carry `error` there (keeping only its message in
		// json); the error itself keeps the HTTP code and the fix.
		...(routeErrors ? { error: toNodeError(context.getNode(), problem, itemIndex) } : {}),
		pairedItem: { item: itemIndex },
	};
}
