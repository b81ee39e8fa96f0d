/** A JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first item of `items` that repeats an earlier one (JSON equality: object keys in any order),
 * as the positions of both; one lookup per item, not a comparison of every pair.
 */
export function firstRepeat(items: readonly unknown[]): [number, number] | undefined {
	const firstIndex = new Map<string, number>();
	for (let index = 0; index < items.length; index++) {
		const key = canonicalJson(items[index]);
		const earlier = firstIndex.get(key);
		if (earlier !== undefined) return [earlier, index];
		firstIndex.set(key, index);
	}
	return undefined;
}

/** Whether an array anywhere in `value` (JSON data) repeats an item. */
export function repeatsAnywhere(value: unknown): boolean {
	if (Array.isArray(value)) {
		return firstRepeat(value) !== undefined || value.some(repeatsAnywhere);
	}
	return isObject(value) && Object.values(value).some(repeatsAnywhere);
}

/** Text that two values share exactly when they are equal as JSON (object keys sorted). */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (isObject(value)) {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}
