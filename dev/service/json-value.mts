/** Checks on parsed JSON values, and a short description of a rejected value for error messages. */

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
