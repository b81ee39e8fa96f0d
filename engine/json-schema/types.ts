/**
 * One way a value fails its schema: where (`$.items[2].price`) and what, worded for people and
 * models.
 */
export interface Violation {
	path: string;
	message: string;
}

/**
 * One mistake in a schema: where in the schema (`properties.city.type`; '' is the schema itself)
 * and what.
 */
export interface SchemaProblem {
	path: string;
	message: string;
}

/** The seven type names JSON Schema knows. */
export const JSON_TYPES: readonly string[] = [
	'string',
	'number',
	'integer',
	'boolean',
	'object',
	'array',
	'null',
];
