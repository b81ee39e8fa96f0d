import { addProblem, type Check } from './check-context';
import { describeValue, quote } from './describe-value';
import { isObject, isSchema, type JsonObject } from './json-values';
import { resolveRef } from './ref';

/** Keywords that apply their schemas to the very value the schema holding them applies to. */
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];

/**
 * `$ref`: text that points to a schema inside this one, and not in a circle that never steps into a
 * property or an item (`{"$ref": "#"}` at the top, or two definitions that only refer to each
 * other): validating against such a circle could never end. A `$ref` below `properties` or `items`
 * is fine: that is how trees and linked lists are described.
 */
export function checkRef(ref: unknown, path: string, check: Check, holder: JsonObject): void {
	if (typeof ref !== 'string') {
		const got = describeValue(ref);
		return addProblem(check, path, `must be a reference such as "#/$defs/address", got ${got}`);
	}
	const resolved = resolveRef(check.root, ref);
	if (!resolved.ok) return addProblem(check, path, resolved.reason);
	if (!isSchema(resolved.target)) {
		const got = describeValue(resolved.target);
		return addProblem(check, path, `${quote(ref)} points to ${got}, which is not a schema`);
	}
	if (leadsBackTo(holder, resolved.target, check.root)) {
		const message = `${quote(ref)} leads back here without stepping into a property or an item, so checking a value against it would never end`;
		addProblem(check, path, message);
	}
}

/** Whether following $ref, allOf, anyOf, oneOf and not from `start` comes back to `holder`. */
function leadsBackTo(holder: JsonObject, start: unknown, root: unknown): boolean {
	const seen = new Set<JsonObject>();
	const pending = [start];
	while (pending.length > 0) {
		const schema = pending.pop();
		if (schema === holder) return true;
		if (!isObject(schema) || seen.has(schema)) continue;
		seen.add(schema);
		pending.push(...inPlaceSchemas(schema, root));
	}
	return false;
}

function inPlaceSchemas(schema: JsonObject, root: unknown): unknown[] {
	const found: unknown[] = [];
	if (typeof schema.$ref === 'string') {
		const resolved = resolveRef(root, schema.$ref);
		if (resolved.ok) found.push(resolved.target);
	}
	for (const keyword of IN_PLACE_LISTS) {
		const list = schema[keyword];
		if (Array.isArray(list)) found.push(...list);
	}
	found.push(schema.not);
	return found;
}
