import { addProblem, type Check } from './check-context';
import { describeValue, quote } from './describe-value';
import { isObject, type JsonObject } from './json-values';
import { refTarget, type PreparedSchema } from './library';
import { locationSteps, valueAt } from './locations';

/** Keywords that apply their schemas to the very value the schema holding them applies to. */
const IN_PLACE = ['not', 'if', 'then', 'else'];
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
	const target = refTarget(holder, check.prepared);
	if (target === undefined) return addProblem(check, path, unresolved(ref, check.prepared.root));
	if (leadsBackTo(holder, target, check.prepared)) {
		const message = `${quote(ref)} leads back here without stepping into a property or an item, so checking a value against it would never end`;
		addProblem(check, path, message);
	}
}

/** Why a `$ref` points to no schema. */
function unresolved(ref: string, root: unknown): string {
	const shown = quote(ref);
	if (!ref.startsWith('#')) {
		return `${shown} points outside this schema; nothing is fetched, so only references to a place or an "$id" in this schema work here`;
	}
	if (!ref.startsWith('#/')) return `${shown} names no "$anchor" in this schema`;
	let target: unknown;
	try {
		target = valueAt(root, locationSteps(ref)).value;
	} catch {
		return `${shown} has a broken %-escape`;
	}
	return target === undefined
		? `${shown} does not point to anything in this schema`
		: `${shown} points to ${describeValue(target)}, which is not a schema`;
}

/** Whether following $ref and the in-place keywords from `start` comes back to `holder`. */
function leadsBackTo(holder: JsonObject, start: unknown, prepared: PreparedSchema): boolean {
	const seen = new Set<JsonObject>();
	const pending = [start];
	while (pending.length > 0) {
		const schema = pending.pop();
		if (schema === holder) return true;
		if (!isObject(schema) || seen.has(schema)) continue;
		seen.add(schema);
		pending.push(refTarget(schema, prepared), ...IN_PLACE.map((keyword) => schema[keyword]));
		for (const keyword of IN_PLACE_LISTS) {
			const list = schema[keyword];
			if (Array.isArray(list)) pending.push(...list);
		}
	}
	return false;
}
