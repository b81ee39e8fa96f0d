/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` can be a schema at all: an object, or `true` / `false`. */
export function isSchema(value: unknown): boolean {
	return typeof value === 'boolean' || isObject(value);
}

/** Whether `value` is of the JSON Schema type `type`: `integer` is a number without a fraction. */
export function hasType(value: unknown, type: string): boolean {
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'integer':
			return Number.isInteger(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'object':
			return isObject(value);
		case 'array':
			return Array.isArray(value);
		case 'null':
			return value === null;
		default:
			return false;
	}
}

/**
 * JSON equality: same kind and content, object keys in any order (what enum, const and uniqueItems
 * need).
 */
export function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (Array.isArray(a)) {
		return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
	}
	if (!isObject(a) || !isObject(b)) return false;
	const keys = Object.keys(a);
	return (
		keys.length === Object.keys(b).length &&
		keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
	);
}

/**
 * Text that two values share exactly when `sameJson` holds (object keys sorted), so that
 * uniqueItems can find repeats with a lookup per item instead of comparing every pair.
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (isObject(value)) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}
