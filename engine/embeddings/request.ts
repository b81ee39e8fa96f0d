import { InputError } from '../failures/errors';
import { optionSetting, optionValue, wireFields } from '../options/read';
import { checkExtraBody, setByOptions } from '../request/build';
import { checkModel } from '../request/model-id';
import { retryPolicy } from '../request/retry-policy';
import type { RetryPolicy } from '../retry/policy';
import { describe } from '../values';

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
 * Each text must be a non-empty string: services refuse an empty one (OpenAI: 400 `'$.input' is invalid`),
 * and it has nothing to search by. `what` names the texts, e.g. `Document` or `The query`.
 */
export function checkTexts(texts: readonly unknown[], what: 'Document' | 'Query'): string[] {
	const at = texts.findIndex((text) => typeof text !== 'string' || text === '');
	if (at === -1) return texts as string[];
	const field =
		what === 'Query' ? 'The query to search by' : `Document ${at + 1} of ${texts.length}`;
	const fix =
		what === 'Query'
			? 'An empty query has nothing to search by: check the expression that gives the prompt or query, or the tool description that tells the agent to pass one.'
			: 'The service refuses empty text, and an empty document has nothing to search by: leave out items whose text is empty before the vector store (e.g. with a Filter node), or check the field the Data Loader reads.';
	const problem =
		typeof texts[at] === 'string' ? 'is empty' : `is not text but ${describe(texts[at])}`;
	throw new InputError(field, problem, fix);
}
