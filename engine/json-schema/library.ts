/**
 * Everything that calls @cfworker/json-schema, in one file: the build inlines the library into the
 * compiled file of each file that imports it.
 */
import {
	dereference,
	ignoredKeyword,
	schemaArrayKeyword,
	schemaMapKeyword,
	validate,
	type OutputUnit,
	type Schema,
} from '@cfworker/json-schema';

import { isObject } from './json-values';

/** A schema as @cfworker/json-schema reads it: a copy of the one given, and each schema in it by URI. */
export interface PreparedSchema {
	readonly root: Schema | boolean;
	/** What `$ref`s point to: every schema in `root` by its URI (`#/$defs/a`, an `$id`, an `$anchor`). */
	readonly lookup: Record<string, Schema | boolean>;
}

/**
 * A copy of `schema` for the library, which marks the schemas it is given with their URIs: the
 * caller's object stays as it was. In the copy:
 * - `format` is left out: in draft 2020-12 it only annotates, and the library would assert it;
 * - each `false` schema is `{"not": {}}`, which allows nothing either, and whose violations the
 *   library reports with their place in the schema (for `false` it gives the place in the value);
 * - `uniqueItems` is left out when `withUniqueItems` is false: the library compares every pair of
 *   items (20,000 items take most of a minute), so the caller drops it when no array in the value
 *   repeats an item, where it cannot fail.
 *
 * The copy follows the library's own reading of where schemas are. Throws when an `$id` is not a
 * URI or two schemas have the same one.
 */
export function prepareSchema(schema: unknown, withUniqueItems = true): PreparedSchema {
	const left = withUniqueItems ? ['format'] : ['format', 'uniqueItems'];
	const root = copySchema(schema, left) as Schema | boolean;
	return { root, lookup: dereference(root) };
}

/**
 * Every violation of draft 2020-12 the library finds in `value` (it does not stop at the first one),
 * as its output units. Throws when a `$ref` points to no schema, a pattern does not compile, or the
 * schema leads back to itself without end.
 */
export function findViolations(prepared: PreparedSchema, value: unknown): OutputUnit[] {
	return validate(value, prepared.root, '2020-12', prepared.lookup, false).errors;
}

function copySchema(schema: unknown, left: readonly string[]): unknown {
	if (schema === false) return { not: {} };
	if (!isObject(schema)) return schema;
	return Object.fromEntries(
		Object.entries(schema)
			.filter(([keyword]) => !left.includes(keyword))
			.map(([keyword, value]) => [keyword, copyKeyword(keyword, value, left)]),
	);
}

function copyKeyword(keyword: string, value: unknown, left: readonly string[]): unknown {
	if (Object.hasOwn(ignoredKeyword, keyword)) return value;
	if (Array.isArray(value)) {
		const isList = Object.hasOwn(schemaArrayKeyword, keyword);
		return isList ? value.map((member) => copySchema(member, left)) : value;
	}
	if (Object.hasOwn(schemaMapKeyword, keyword) && isObject(value)) {
		return Object.fromEntries(
			Object.entries(value).map(([name, member]) => [name, copySchema(member, left)]),
		);
	}
	return copySchema(value, left);
}

/** The schema a `$ref` in `schema` (a schema of `prepared`) points to; undefined when none. */
export function refTarget(schema: unknown, prepared: PreparedSchema): unknown {
	const uri = isObject(schema) ? schema.__absolute_ref__ : undefined;
	return typeof uri === 'string' ? prepared.lookup[uri] : undefined;
}
