/** Validation of an embeddings request body (POST /v1/embeddings), as OpenAI's endpoint checks it. */
import { endpointBody, optionalPositiveInteger } from './body-fields.mts';
import { parseEmbeddingKnobs, type EmbeddingKnobs } from './embedding-knobs.mts';
import { invalidRequest } from './errors.mts';
import { describe } from './json-value.mts';

export interface EmbeddingsRequest {
	model: string;
	/** The texts, in order (a single string is one input). */
	input: string[];
	encodingFormat: 'float' | 'base64';
	/** Asked for fewer dimensions than the model's own. */
	dimensions?: number;
	knobs: EmbeddingKnobs;
}

/** OpenAI's limit on inputs per request. */
export const MAX_INPUTS = 2048;

/** OpenAI's words for an input it refuses (an empty string, an empty array). */
const invalidInput = () =>
	invalidRequest(
		"'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
		null,
	);

function parseInput(value: unknown): string[] {
	const input = typeof value === 'string' ? [value] : value;
	if (!Array.isArray(input) || input.length === 0) throw invalidInput();
	if (input.some((text) => typeof text !== 'string')) {
		// Token-ID arrays are part of OpenAI's protocol; this service, like many gateways, takes text only.
		throw invalidRequest(
			`'input' must be a string or an array of strings, got ${describe(input.find((text) => typeof text !== 'string'))} in it`,
			'input',
			'invalid_type',
		);
	}
	if (input.some((text) => text === '')) throw invalidInput();
	if (input.length > MAX_INPUTS) {
		throw invalidRequest(
			`'input' : maximum ${MAX_INPUTS} inputs per request, got ${input.length}`,
			'input',
			'invalid_value',
		);
	}
	return input as string[];
}

/** Parses and validates the body; throws a 400 ApiError naming the field at fault. */
export function parseEmbeddingsRequest(rawBody: string): EmbeddingsRequest {
	const { body, knobs, model } = endpointBody(
		rawBody,
		['input', 'encoding_format', 'dimensions', 'user'],
		parseEmbeddingKnobs,
	);
	const { input, encoding_format, dimensions, user } = body;
	if (user !== undefined && typeof user !== 'string') {
		throw invalidRequest(`'user' must be a string, got ${describe(user)}`, 'user', 'invalid_type');
	}
	const format = encoding_format ?? 'float';
	if (format !== 'float' && format !== 'base64') {
		throw invalidRequest(
			`'encoding_format' must be 'float' or 'base64', got ${describe(format)}`,
			'encoding_format',
			'invalid_value',
		);
	}
	const asked = optionalPositiveInteger(dimensions, 'dimensions');
	return {
		model,
		input: parseInput(input),
		encodingFormat: format,
		...(asked === undefined ? {} : { dimensions: asked }),
		knobs,
	};
}
