import { addProblem, type Check, type KeywordCheck } from './check-context';
import {
	checkBound,
	checkCount,
	checkDependentRequired,
	checkEnum,
	checkExclusiveBound,
	checkFlag,
	checkMultipleOf,
	checkPattern,
	checkRanges,
	checkRequired,
	checkType,
	patternProblem,
} from './check-keywords';
import { checkRef } from './check-ref';
import { describeValue } from './describe-value';
import { isObject } from './json-values';
import { prepareSchema, type PreparedSchema } from './library';
import { indexPath, keyPath } from './path';
import { JSON_TYPES, type SchemaProblem } from './types';

/**
 * The mistakes in a schema someone typed, found before it is used: a misspelled `type` anywhere in
 * the tree (with a suggestion), keywords whose values have the wrong form, `required` names that
 * `properties` does not define, patterns that do not compile, `$ref`s that point nowhere or in a
 * circle, bounds that exclude every value, keywords the validator does not follow. Returns them in
 * the order they appear in the schema; none when the schema is fine. Paths name the place in the
 * schema: `properties.address.properties.city.type`, '' for the schema itself.
 */
export function checkSchema(schema: unknown): SchemaProblem[] {
	let prepared: PreparedSchema;
	try {
		prepared = prepareSchema(schema);
	} catch {
		return [
			{ path: '', message: 'has an "$id" that is not a URI, or two schemas with the same "$id"' },
		];
	}
	const check: Check = { prepared, problems: [] };
	checkSubschema(prepared.root, '', check);
	return check.problems;
}

/** Any schema: true, false, or an object whose keywords are checked in the order written. */
function checkSubschema(schema: unknown, path: string, check: Check): void {
	if (typeof schema === 'boolean') return;
	if (!isObject(schema)) return addProblem(check, path, notASchema(schema));
	for (const [keyword, value] of Object.entries(schema)) {
		KEYWORD_CHECKS.get(keyword)?.(value, keyPath(path, keyword), check, schema);
	}
	checkRanges(schema, path, check);
}

/** `items`: one schema; the list form of older drafts is now called prefixItems. */
function checkItems(value: unknown, path: string, check: Check): void {
	if (!Array.isArray(value)) return checkSubschema(value, path, check);
	const message = `${notASchema(value)}; to give one schema for each position, use "prefixItems"`;
	addProblem(check, path, message);
}

/** `$dynamicRef` and `$dynamicAnchor`: the validator would pass over them without a word. */
function checkUnsupported(_value: unknown, path: string, check: Check): void {
	addProblem(check, path, 'is not supported here; use "$ref" with "$defs"');
}

/** prefixItems, allOf, anyOf, oneOf: a non-empty list of schemas. */
function checkSchemaList(value: unknown, path: string, check: Check): void {
	if (!Array.isArray(value) || value.length === 0) {
		const got = describeValue(value);
		return addProblem(check, path, `must be a non-empty list of schemas, got ${got}`);
	}
	value.forEach((member, index) => checkSubschema(member, indexPath(path, index), check));
}

/** properties, $defs, definitions, dependentSchemas: an object with a schema for each name. */
function checkSchemaMap(value: unknown, path: string, check: Check): void {
	if (!isObject(value)) {
		const got = describeValue(value);
		return addProblem(check, path, `must be an object with a schema for each name, got ${got}`);
	}
	for (const [name, member] of Object.entries(value)) {
		checkSubschema(member, keyPath(path, name), check);
	}
}

/** patternProperties: a schema map whose names are regular expressions. */
function checkPatternProperties(value: unknown, path: string, check: Check): void {
	checkSchemaMap(value, path, check);
	if (!isObject(value)) return;
	for (const pattern of Object.keys(value)) {
		const problem = patternProblem(pattern);
		if (problem !== undefined) addProblem(check, keyPath(path, pattern), problem);
	}
}

/**
 * "must be a schema …", with the fix for the common slip of writing a type name where a schema
 * goes.
 */
function notASchema(value: unknown): string {
	const message = `must be a schema (a JSON object, true or false), got ${describeValue(value)}`;
	const isTypeName = typeof value === 'string' && JSON_TYPES.includes(value);
	return isTypeName ? `${message}; write {"type": "${value}"}` : message;
}

/** The keywords checked, grouped by the check their values get. */
const CHECKED_KEYWORDS: [KeywordCheck, string[]][] = [
	[checkType, ['type']],
	[checkEnum, ['enum']],
	[checkRequired, ['required']],
	[checkDependentRequired, ['dependentRequired']],
	[checkSchemaMap, ['properties', 'dependentSchemas', '$defs', 'definitions']],
	[checkPatternProperties, ['patternProperties']],
	[checkSubschema, ['additionalProperties', 'unevaluatedProperties', 'propertyNames']],
	[checkSubschema, ['contains', 'unevaluatedItems', 'not', 'if', 'then', 'else']],
	[checkSchemaList, ['prefixItems', 'allOf', 'anyOf', 'oneOf']],
	[checkItems, ['items']],
	[checkRef, ['$ref']],
	[checkUnsupported, ['$dynamicRef', '$dynamicAnchor']],
	[checkCount, ['minLength', 'maxLength', 'minItems', 'maxItems', 'minContains', 'maxContains']],
	[checkCount, ['minProperties', 'maxProperties']],
	[checkBound, ['minimum', 'maximum']],
	[checkExclusiveBound, ['exclusiveMinimum', 'exclusiveMaximum']],
	[checkMultipleOf, ['multipleOf']],
	[checkFlag, ['uniqueItems']],
	[checkPattern, ['pattern']],
];

const KEYWORD_CHECKS = new Map(
	CHECKED_KEYWORDS.flatMap(([check, keywords]) =>
		keywords.map((keyword): [string, KeywordCheck] => [keyword, check]),
	),
);
