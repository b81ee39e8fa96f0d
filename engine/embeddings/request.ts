import { optionSetting, optionValue } from '../options/read';
import type { EndpointRequest } from '../request/endpoint';
import { endpointRequest } from '../request/endpoint';
import { checkedQuery, nonEmptyTexts } from '../request/texts';

/** The fields the node itself sets in every embeddings request: Extra Body may not set them. */
const RESERVED_FIELDS: Record<string, string> = {
	model: 'the Model field sets',
	input: 'the texts to embed set',
	encoding_format: 'the node sets to "float"',
};

/** An embeddings request, checked once, for all the batches it is sent with. */
export interface EmbeddingsRequest extends EndpointRequest {
	/** Options > Dimensions, when set: every vector must have this length. */
	dimensions?: number;
	/** Texts per request (Options > Batch Size). */
	batchSize: number;
}

/** Checks the Model and the Options (ranges, Extra Body) before anything is sent. */
export function buildEmbeddingsRequest(
	model: unknown,
	options: Record<string, unknown>,
): EmbeddingsRequest {
	return {
		...endpointRequest(model, options, RESERVED_FIELDS),
		dimensions: optionValue(options, 'dimensions'),
		batchSize: optionSetting(options, 'batchSize'),
	};
}

/** The body of one batch: its texts as an array of plain strings, in order, and vectors as floats. */
export function embeddingsBody(request: EmbeddingsRequest, input: string[]): object {
	return { ...request.fields, model: request.model, input, encoding_format: 'float' };
}

/**
 * The texts to embed, each a non-empty string (`nonEmptyTexts`). `what` names the texts: the documents of an
 * insert, or the query of a search (`checkedQuery`: `missing` says why the store passed none).
 */
export function checkTexts(
	texts: readonly unknown[],
	what: 'Document' | 'Query',
	missing: () => string,
): string[] {
	if (what === 'Query') return texts.map((query) => checkedQuery(query, missing));
	return nonEmptyTexts(
		texts,
		(at, count) => `Document ${at + 1} of ${count}`,
		'The service refuses empty text, and an empty document has nothing to search by: leave out items whose text is empty before the vector store (e.g. with a Filter node), or check the field the Data Loader reads.',
	);
}
