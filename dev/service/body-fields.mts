/** Checks of request body fields that the embeddings and rerank endpoints share, with the 400 naming the field. */
import { invalidRequest } from './errors.mts';
import { parseJsonBody } from './json-body.mts';
import { describe, type Json } from './json-value.mts';

/**
 * The body of an endpoint that reads `model` and `fields`: its knobs (`x_local`, taken out before validation),
 * its model (a non-empty string) and its other fields; any field besides these is refused, as OpenAI does.
 */
export function endpointBody<K>(
	rawBody: string,
	fields: readonly string[],
	parseKnobs: (value: unknown) => K,
): { body: Json; knobs: K; model: string } {
	const { x_local: rawKnobs, model, ...body } = parseJsonBody(rawBody);
	const knobs = parseKnobs(rawKnobs);
	const unknown = Object.keys(body).find((name) => !fields.includes(name));
	if (unknown !== undefined) {
		throw invalidRequest(
			`Unrecognized request argument supplied: ${unknown}`,
			unknown,
			'unknown_parameter',
		);
	}
	if (typeof model !== 'string' || model === '') {
		throw invalidRequest("'model' is required (a string)", 'model', 'missing_required_parameter');
	}
	return { body, knobs, model };
}

/** An optional field that must be a positive integer when sent (`dimensions`, `top_n`). */
export function optionalPositiveInteger(value: unknown, field: string): number | undefined {
	if (value === undefined || (Number.isInteger(value) && (value as number) > 0)) {
		return value as number | undefined;
	}
	throw invalidRequest(
		`'${field}' must be a positive integer, got ${describe(value)}`,
		field,
		'invalid_value',
	);
}
