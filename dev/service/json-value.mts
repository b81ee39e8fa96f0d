/** Checks on parsed JSON values, a short description of a rejected value for error messages, and JSON text. */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	const text =
		typeof value === 'string' ? `'${value}'` : `${typeof value} ${JSON.stringify(value)}`;
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * `value` as JSON text the way models often write it, with a space after each `:` and `,`
 * (`{"name": "Ada", "tags": ["x"]}`), so that a stream splits it into several word pieces.
 */
export function jsonText(value: unknown): string {
	return JSON.stringify(value, null, 1)
		.replace(/,\n\s*/g, ', ')
		.replace(/\n\s*/g, '');
}
