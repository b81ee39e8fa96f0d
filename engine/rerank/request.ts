import { optionValue } from '../options/read';
import type { EndpointRequest } from '../request/endpoint';
import { endpointRequest } from '../request/endpoint';
import { checkedQuery, nonEmptyTexts } from '../request/texts';
import { isPlainObject } from '../values';

/** At most this many documents go into one request (Cohere's limit, which gateways keep); more go in several. */
export const MAX_DOCUMENTS = 1000;

/** The fields the node itself sets in every rerank request: Extra Body may not set them. */
const RESERVED_FIELDS: Record<string, string> = {
	model: 'the Model field sets',
	query: 'the search sets',
	documents: "the vector store's documents set",
	top_n: 'Options > Top N sets',
};

/** What one search is ranked with: the model, how many of the documents come back, and the request's settings. */
export interface RerankRequest extends EndpointRequest {
	/** Options > Top N: at most this many documents come back, best first; unset, every document does. */
	topN?: number;
	/** Options > Minimum Score: documents the model scores below it are left out. */
	minScore?: number;
}

/** Checks the Model and the Options (ranges, Extra Body) before anything is sent. */
export function buildRerankRequest(
	model: unknown,
	options: Record<string, unknown>,
): RerankRequest {
	return {
		...endpointRequest(model, options, RESERVED_FIELDS),
		topN: optionValue(options, 'topN'),
		minScore: optionValue(options, 'minScore'),
	};
}

/** A search's query and the text of each document the vector store found, in its order. */
export interface RerankInput {
	query: string;
	documents: string[];
}

/** The body of one request: Extra Body, the documents as plain strings, and how many of them to rank (`top_n`). */
export interface RerankBody extends Record<string, unknown> {
	model: string;
	query: string;
	documents: string[];
	top_n: number;
}

/** One request of a search: its body, and where its documents start among the search's (`first`). */
export interface RerankBatch {
	first: number;
	body: RerankBody;
}

/** A document's text: a vector store's document holds it in `pageContent`; a text is itself. */
function textOf(document: unknown): unknown {
	return isPlainObject(document) && 'pageContent' in document ? document.pageContent : document;
}

/**
 * The query and documents of a search, checked before anything is sent: the query and every document's text
 * must be non-empty text (services refuse empty text, and it has nothing to rank; `missing` says why the store
 * passed no query). Documents are the vector store's (with `pageContent`) or texts.
 */
export function rerankInput(
	query: unknown,
	documents: readonly unknown[],
	missing: () => string,
): RerankInput {
	const checked = checkedQuery(query, missing);
	const texts = nonEmptyTexts(
		documents.map(textOf),
		(at, count) => `The vector store's document ${at + 1} of ${count}`,
		'The service cannot rank a document without text: remove it from the vector store (insert only items with text, e.g. behind a Filter node), or check the field the Data Loader reads.',
	);
	return { query: checked, documents: texts };
}

/**
 * The requests of one search: the documents in their order, at most `MAX_DOCUMENTS` a request; each asks for
 * Top N of its documents (all of them when Top N is unset or above their number). With several requests the
 * best Top N of all is kept when their rankings are joined (`bestFirst`).
 */
export function rerankBatches(
	request: Pick<RerankRequest, 'model' | 'fields' | 'topN'>,
	input: RerankInput,
): RerankBatch[] {
	const batches: RerankBatch[] = [];
	for (let first = 0; first < input.documents.length; first += MAX_DOCUMENTS) {
		const documents = input.documents.slice(first, first + MAX_DOCUMENTS);
		const topN = Math.min(request.topN ?? documents.length, documents.length);
		batches.push({
			first,
			body: {
				...request.fields,
				model: request.model,
				query: input.query,
				documents,
				top_n: topN,
			},
		});
	}
	return batches;
}
