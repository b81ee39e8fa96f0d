import type { ISupplyDataFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { embeddingsError } from './errors';
import { subNode } from '../../engine';

/**
 * What n8n's vector stores call (LangChain's embeddings interface: `embedDocuments`, `embedQuery`), for
 * insert, load, retrieve and as a tool. Each call is an entry of the sub-node's log in n8n, as n8n's own
 * embeddings nodes write it (the documents or query in, the vectors out), with the tokens it used.
 */
export class ChatCompletionsEmbeddings {
	constructor(
		private readonly context: ISupplyDataFunctions,
		private readonly client: subNode.EmbeddingsClient,
	) {}

	async embedDocuments(documents: string[]): Promise<number[][]> {
		return await this.logged({ documents }, documents, 'Document');
	}

	async embedQuery(query: string): Promise<number[]> {
		const [vector] = await this.logged({ query }, [query], 'Query');
		return vector;
	}

	private async logged(
		input: { documents: string[] } | { query: string },
		texts: readonly unknown[],
		what: 'Document' | 'Query',
	): Promise<number[][]> {
		const { connection, request } = this.client;
		const { vectors } = await subNode.logged(
			this.context,
			NodeConnectionTypes.AiEmbedding,
			input,
			async () => await this.client.embed(texts, what),
			({ vectors: made, usage }) => ({ response: what === 'Query' ? made[0] : made, usage }),
			(error) =>
				embeddingsError(this.context.getNode(), error, {
					connection,
					model: request.model,
					note: this.client.stopNote(error),
				}),
		);
		return vectors;
	}
}
