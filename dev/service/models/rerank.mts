/**
 * The rerank model `rerank-1`: a document's score is the share of the query's words it contains, so that
 * the same query and document always get the same score, from 0 (none) to 1 (all). It answers POST /v1/rerank
 * (rerank.mts); asked for a chat completion it answers 400, as rerank models behind gateways do.
 */
import { lowerWords } from '../words.mts';
import { releaseDate, type ModelDefinition } from './model.mts';
import { notForChat } from './not-for-chat.mts';

export interface RerankModel extends ModelDefinition {
	/** The score of `document` for `query`, in [0, 1]. */
	score(query: string, document: string): number;
}

/** The share of the query's distinct words (lower-cased) that the document contains; 0 for a query without words. */
export function wordShare(query: string, document: string): number {
	const asked = new Set(lowerWords(query));
	if (asked.size === 0) return 0;
	const found = new Set(lowerWords(document));
	return [...asked].filter((word) => found.has(word)).length / asked.size;
}

const rerankModel = (id: string): RerankModel => ({
	id,
	created: releaseDate,
	ownedBy: 'local-rerank',
	score: wordShare,
	respond: notForChat(id, 'a rerank model', '/v1/rerank'),
});

export const rerankModels: RerankModel[] = [rerankModel('rerank-1')];

export function isRerankModel(model: ModelDefinition): model is RerankModel {
	return 'score' in model;
}
