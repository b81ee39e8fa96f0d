import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';

import type { Problem } from './problem';

function withItem(message: string, itemIndex: number | undefined): string {
	return itemIndex === undefined ? message : `${message} (item ${itemIndex})`;
}

/** The error n8n shows (and routes to the error output): message, description, HTTP code, type and code. */
export function toNodeError(
	node: INode,
	problem: Problem,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const message = withItem(problem.message, itemIndex);
	if (problem.kind === 'input') {
		return new NodeOperationError(node, message, { description: problem.description, itemIndex });
	}
	const details: JsonObject = {
		message: problem.serviceMessage ?? problem.message,
		type: problem.type ?? null,
		code: problem.code ?? null,
	};
	return new NodeApiError(node, details, {
		message,
		description: problem.description,
		httpCode: problem.httpCode === undefined ? undefined : String(problem.httpCode),
		itemIndex,
		failure: problem.failure,
	});
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
