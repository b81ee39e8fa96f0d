import { listSome, quote } from './describe-value';
import { isObject, type JsonObject } from './json-values';
import { keyPath } from './path';
import { isFull, regexFor, report, type ApplySchema, type Run } from './run';

/** required, properties, patternProperties and additionalProperties, in that order. */
export function checkObject(
	schema: JsonObject,
	value: JsonObject,
	path: string,
	run: Run,
	apply: ApplySchema,
): void {
	if (Array.isArray(schema.required)) {
		for (const name of schema.required) {
			if (isFull(run)) return;
			if (typeof name === 'string' && !Object.hasOwn(value, name)) {
				report(run, keyPath(path, name), 'is required but missing');
			}
		}
	}
	const properties = isObject(schema.properties) ? schema.properties : {};
	for (const key of Object.keys(properties)) {
		if (isFull(run)) return;
		if (Object.hasOwn(value, key)) apply(properties[key], value[key], keyPath(path, key), run);
	}
	checkUnlisted(schema, properties, value, path, run, apply);
}

/**
 * The properties `properties` does not list: each goes to every patternProperties schema whose
 * pattern matches its name, and to additionalProperties when none does. Properties that
 * additionalProperties: false forbids are reported together, in one violation on the object.
 */
function checkUnlisted(
	schema: JsonObject,
	properties: JsonObject,
	value: JsonObject,
	path: string,
	run: Run,
	apply: ApplySchema,
): void {
	const patterns = isObject(schema.patternProperties)
		? Object.entries(schema.patternProperties)
		: [];
	const { additionalProperties } = schema;
	if (patterns.length === 0 && !isObject(additionalProperties) && additionalProperties !== false) {
		return;
	}
	const forbidden: string[] = [];
	for (const key of Object.keys(value)) {
		if (isFull(run)) return;
		if (Object.hasOwn(properties, key)) continue;
		let matched = false;
		for (const [pattern, patternSchema] of patterns) {
			if (regexFor(run, pattern)?.test(key)) {
				matched = true;
				apply(patternSchema, value[key], keyPath(path, key), run);
			}
		}
		if (matched) continue;
		if (additionalProperties === false) forbidden.push(key);
		else apply(additionalProperties, value[key], keyPath(path, key), run);
	}
	if (forbidden.length > 0 && !isFull(run)) {
		const names = listSome(forbidden.map((key) => quote(key)));
		const noun = forbidden.length === 1 ? 'the property' : 'the properties';
		report(run, path, `has ${noun} ${names} that the schema does not allow`);
	}
}
