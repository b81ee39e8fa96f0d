import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { EMBEDDINGS_OPTIONS } from './properties';
import type { Connection, problems } from '../../engine';
import { subNode } from '../../engine';

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completions Embeddings node',
	options: EMBEDDINGS_OPTIONS,
	errorDetails: false,
};

/**
 * A failure of the Embeddings node as the error its vector store shows (`subNode.failure`), then `note`:
 * what the failed call did with its other batches.
 */
export function embeddingsError(
	node: INode,
	error: unknown,
	{
		connection,
		model,
		note = '',
	}: { connection?: Partial<Connection>; model?: string; note?: string },
): NodeApiError | NodeOperationError {
	return subNode.failure(node, error, { ...connection, model, words: WORDS }, note);
}
