import { count } from './describe-value';
import { canonicalJson, type JsonObject } from './json-values';
import { indexPath } from './path';
import { isFull, report, type ApplySchema, type Run } from './run';

/** minItems, maxItems, prefixItems, items (each item after prefixItems's), then uniqueItems. */
export function checkArray(
	schema: JsonObject,
	value: readonly unknown[],
	path: string,
	run: Run,
	apply: ApplySchema,
): void {
	const { minItems, maxItems, items } = schema;
	if (typeof minItems === 'number' && value.length < minItems) {
		report(run, path, `must have at least ${count(minItems, 'item')}, got ${value.length}`);
	}
	if (typeof maxItems === 'number' && value.length > maxItems) {
		report(run, path, `must have at most ${count(maxItems, 'item')}, got ${value.length}`);
	}
	const prefixItems = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
	for (let index = 0; index < value.length; index++) {
		if (isFull(run)) return;
		const itemSchema = index < prefixItems.length ? prefixItems[index] : items;
		apply(itemSchema, value[index], indexPath(path, index), run);
	}
	if (schema.uniqueItems === true && !isFull(run)) checkUnique(value, path, run);
}

/** Reports the first repeated item; one lookup per item, not a comparison of every pair. */
function checkUnique(value: readonly unknown[], path: string, run: Run): void {
	const firstIndex = new Map<string, number>();
	for (let index = 0; index < value.length; index++) {
		const key = canonicalJson(value[index]);
		const earlier = firstIndex.get(key);
		if (earlier !== undefined) {
			report(run, path, `must not repeat an item, but [${earlier}] and [${index}] are the same`);
			return;
		}
		firstIndex.set(key, index);
	}
}
