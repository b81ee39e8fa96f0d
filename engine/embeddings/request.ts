import { optionSetting, optionValue, wireFields } from '../options/read';
import { checkExtraBody, setByOptions } from '../request/build';
import { checkModel } from '../request/model-id';
import { retryPolicy } from '../request/retry-policy';
import { nonEmptyTexts, QUERY_FIELD, QUERY_FIX } from '../request/texts';
import type { RetryPolicy } from '../retry/policy';

/** The fields the node itself sets in every embeddings request: Extra Body may not set them. */
const RESERVED_FIELDS: Record<string, string> = {
	model: 'the Model field sets',
	input: 'the texts to embed set',
	encoding_format: 'the node sets to "float"',
};

/** An embeddings request, checked once, for all the batches it is sent with. */
export interface EmbeddingsRequest {
	model: string;
	/** Extra Body and the Options' wire fields (`dimensions`), sent with every batch. */
	fields: Record<string, unknown>;
	/** Options > Dimensions, when set: every vector must have this length. */
	dimensions?: number;
	/** Texts per request (Options > Batch Size). */
	batchSize: number;
	timeout: number;
	retry: RetryPolicy;
}

/** Checks the Model and the Options (ranges, Extra Body) before anything is sent. */
export function buildEmbeddingsRequest(
	model: unknown,
	options: Record<string, unknown>,
): EmbeddingsRequest {
	const fields = wireFields(options);
	const setBy = { ...RESERVED_FIELDS, ...setByOptions(fields) };
	return {
		model: checkModel(model),
		fields: { ...checkExtraBody(options.extraBody, setBy), ...fields },
		dimensions: optionValue(options, 'dimensions'),
		batchSize: optionSetting(options, 'batchSize'),
		timeout: optionSetting(options, 'timeout'),
		retry: retryPolicy(options),
	};
}

/** The body of one batch: its texts as an array of plain strings, in order, and vectors as floats. */
export function embeddingsBody(request: EmbeddingsRequest, input: string[]): object {
	return { ...request.fields, model: request.model, input, encoding_format: 'float' };
}

/**
 * The texts to embed, each a non-empty string (`nonEmptyTexts`). `what` names the texts: the documents of an
 * insert, or the query of a search.
 */
export function checkTexts(texts: readonly unknown[], what: 'Document' | 'Query'): string[] {
	if (what === 'Query') return nonEmptyTexts(texts, () => QUERY_FIELD, QUERY_FIX);
	return nonEmptyTexts(
		texts,
		(at, count) => `Document ${at + 1} of ${count}`,
		'The service refuses empty text, and an empty document has nothing to search by: leave out items whose text is empty before the vector store (e.g. with a Filter node), or check the field the Data Loader reads.',
	);
}
