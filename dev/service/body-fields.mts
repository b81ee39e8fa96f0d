/**
 * Checks of request body fields that the endpoints besides chat share (embeddings, rerank, images, audio), with
 * the 400 naming the field. Null counts as absent, as with the common protocol.
 */
import { invalidRequest } from './errors.mts';
import { parseJsonBody } from './json-body.mts';
import { describe, type Json } from './json-value.mts';

/** A 400 for the first of `names` that is not among `known`, as OpenAI answers an unknown argument. */
export function rejectUnknownFields(names: Iterable<string>, known: readonly string[]): void {
	for (const name of names) {
		if (known.includes(name)) continue;
		throw invalidRequest(
			`Unrecognized request argument supplied: ${name}`,
			name,
			'unknown_parameter',
		);
	}
}

/** The `model` field: a non-empty string, else the 400 for a missing model. */
export function requiredModel(model: unknown): string {
	if (typeof model !== 'string' || model === '') {
		throw invalidRequest("'model' is required (a string)", 'model', 'missing_required_parameter');
	}
	return model;
}

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
	rejectUnknownFields(Object.keys(body), fields);
	return { body, knobs, model: requiredModel(model) };
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

/** An optional number from `min` to `max` (`integer`: a whole one), e.g. `n`, `speed`, `temperature`. */
export function optionalNumber(
	value: unknown,
	field: string,
	min: number,
	max: number,
	integer = false,
): number | undefined {
	if (value === undefined || value === null) return undefined;
	const valid =
		typeof value === 'number' &&
		(integer ? Number.isInteger(value) : Number.isFinite(value)) &&
		value >= min &&
		value <= max;
	if (valid) return value;
	throw invalidRequest(
		`'${field}' must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got ${describe(value)}`,
		field,
		'invalid_value',
	);
}

/** A field that must be a non-empty string (`query`, `prompt`, `input`, `voice`). */
export function nonEmptyString(value: unknown, field: string): string {
	if (typeof value === 'string' && value !== '') return value;
	throw invalidRequest(
		`'${field}' must be a non-empty string, got ${value === undefined ? 'nothing' : describe(value)}`,
		field,
		value === undefined ? 'missing_required_parameter' : 'invalid_value',
	);
}

/** An optional field that must be one of `values` when sent, refused in OpenAI's words. */
export function optionalChoice<T extends string>(
	value: unknown,
	field: string,
	values: readonly T[],
): T | undefined {
	if (value === undefined || value === null) return undefined;
	const known = values.find((candidate) => candidate === value);
	if (known !== undefined) return known;
	throw invalidRequest(
		`Invalid value for '${field}': ${describe(value)}. Supported values are: ${values.map((choice) => `'${choice}'`).join(', ')}.`,
		field,
		'invalid_value',
	);
}
