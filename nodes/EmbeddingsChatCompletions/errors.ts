import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { EMBEDDINGS_OPTIONS } from './properties';
import type { Connection } from '../../engine';
import { problems } from '../../engine';

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completions Embeddings node',
	options: EMBEDDINGS_OPTIONS,
	errorDetails: false,
	reasoningMissing: '',
	reasoningRefused: '',
};

/**
 * A failure of the Embeddings node as the error its vector store shows: the message, the service's words
 * and the fix, then `note` (what the failed call did with its other batches). Marked as the sub-node's
 * own, so that n8n names this node as the one to open.
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
	const problem = problems.describeProblem(error, { ...connection, model, words: WORDS });
	if (note !== '') problem.description += ` ${note}`;
	const nodeError = problems.toNodeError(node, problem);
	nodeError.functionality = 'configuration-node';
	return nodeError;
}
