import type { IDataObject, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { embeddingsError } from './errors';
import type { EmbeddingsClient, EmbeddingsUsage } from '../../engine';

/** The usage as n8n's log of a sub-node reads it (the AI log sums `tokenUsage`); none when the service sent none. */
function tokenUsage(usage: EmbeddingsUsage | undefined): IDataObject {
	if (usage === undefined) return {};
	return {
		tokenUsage: {
			promptTokens: usage.promptTokens,
			completionTokens: 0,
			totalTokens: usage.totalTokens,
		},
	};
}

/**
 * What n8n's vector stores call (LangChain's embeddings interface: `embedDocuments`, `embedQuery`), for
 * insert, load, retrieve and as a tool. Each call is an entry of the sub-node's log in n8n, as n8n's own
 * embeddings nodes write it (the documents or query in, the vectors out), with the tokens it used.
 */
export class ChatCompletionsEmbeddings {
	constructor(
		private readonly context: ISupplyDataFunctions,
		private readonly client: EmbeddingsClient,
	) {}

	async embedDocuments(documents: string[]): Promise<number[][]> {
		return await this.logged({ documents }, documents, 'Document');
	}

	async embedQuery(query: string): Promise<number[]> {
		const [vector] = await this.logged({ query }, [query], 'Query');
		return vector;
	}

	private async logged(
		input: IDataObject,
		texts: readonly unknown[],
		what: 'Document' | 'Query',
	): Promise<number[][]> {
		const type = NodeConnectionTypes.AiEmbedding;
		const { index } = this.context.addInputData(type, [[{ json: input }]]);
		try {
			const { vectors, usage } = await this.client.embed(texts, what);
			this.context.addOutputData(type, index, [
				[{ json: { response: what === 'Query' ? vectors[0] : vectors, ...tokenUsage(usage) } }],
			]);
			return vectors;
		} catch (error) {
			const { connection, request } = this.client;
			const failure = embeddingsError(this.context.getNode(), error, {
				connection,
				model: request.model,
				note: this.client.stopNote(error),
			});
			this.context.addOutputData(type, index, failure);
			throw failure;
		}
	}
}
