import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RERANKER_OPTIONS } from './properties';
import type { Connection, problems } from '../../engine';
import { subNode } from '../../engine';

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completions Reranker node',
	options: RERANKER_OPTIONS,
	errorDetails: false,
};

/** A failure of the Reranker node as the error its vector store shows (`subNode.failure`). */
export function rerankerError(
	node: INode,
	error: unknown,
	{ connection, model }: { connection?: Partial<Connection>; model?: string },
): NodeApiError | NodeOperationError {
	return subNode.failure(node, error, { ...connection, model, words: WORDS });
}
