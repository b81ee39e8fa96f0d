import type { ISupplyDataFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { DocumentCompressor, StoreDocument } from './document-compressor';
import { rerankerError } from './errors';
import { subNode } from '../../engine';

/**
 * What n8n's vector stores call (a `DocumentCompressor`, `document-compressor.ts`) under Get Many with
 * Rerank Results, Retrieve Documents as a tool, and the Vector Store Retriever. The documents come back best
 * first, each a new object (the store's own are not written to) whose `metadata.relevanceScore` is the
 * service's score, which the store shows as the item's `score`. Each search is an entry of the sub-node's
 * log in n8n, as n8n writes its own reranker's (the query and documents in, the documents with scores out).
 */
export class ChatCompletionsReranker implements DocumentCompressor {
	constructor(
		private readonly context: ISupplyDataFunctions,
		private readonly client: subNode.RerankClient,
	) {}

	async compressDocuments(documents: StoreDocument[], query: string): Promise<StoreDocument[]> {
		const { connection, request } = this.client;
		const { scored } = await subNode.logged(
			this.context,
			NodeConnectionTypes.AiReranker,
			{ query, documents },
			async () => {
				const { ranked, usage } = await this.client.rank(query, documents);
				return {
					scored: ranked.map(({ index, score }) => ({
						...documents[index],
						metadata: { ...documents[index].metadata, relevanceScore: score },
					})),
					usage,
				};
			},
			(result) => ({ response: result.scored, usage: result.usage }),
			(error) => rerankerError(this.context.getNode(), error, { connection, model: request.model }),
		);
		return scored;
	}
}
