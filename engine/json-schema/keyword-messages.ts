import {
	alternatives,
	count,
	describeValue,
	listSome,
	literal,
	quote,
	schemaLiteral,
	typeWord,
} from './describe-value';
import { firstRepeat, isObject, type JsonObject } from './json-values';
import { keyPath } from './path';
import type { Violation } from './types';

/**
 * What a failing keyword says about the value, from the schema that holds it. The library reports a
 * keyword only for values it applies to (minLength for texts, required for objects...), so each
 * message may take the value to be of that kind.
 */
type Message = (schema: JsonObject, value: never, keyword: string) => string;

/** `at least 3 items`: the bound of a count keyword (`minItems`, `maxItems`...) in words. */
function bound(schema: JsonObject, keyword: string, noun: string, plural?: string): string {
	const words = keyword.startsWith('min') ? 'at least' : 'at most';
	return `${words} ${count(Number(schema[keyword]), noun, plural)}`;
}

/** Lengths count Unicode code points, as the library does: an emoji is one character. */
const length: Message = (schema, value: string, keyword) =>
	`must be ${bound(schema, keyword, 'character')} long, got ${[...value].length}`;
const items: Message = (schema, value: unknown[], keyword) =>
	`must have ${bound(schema, keyword, 'item')}, got ${value.length}`;
const properties: Message = (schema, value: JsonObject, keyword) =>
	`must have ${bound(schema, keyword, 'property', 'properties')}, got ${Object.keys(value).length}`;
const contained: Message = (schema, _value, keyword) =>
	`must contain ${bound(schema, keyword, 'item')} of the shape given under "contains"`;

const NUMBER_WORDS: Record<string, string> = {
	minimum: 'at least',
	maximum: 'at most',
	exclusiveMinimum: 'greater than',
	exclusiveMaximum: 'less than',
	multipleOf: 'a multiple of',
};
const number: Message = (schema, value: number, keyword) =>
	`must be ${NUMBER_WORDS[keyword]} ${schema[keyword]}, got ${value}`;

const MESSAGES: Record<string, Message> = {
	type: ({ type }, value: unknown) => {
		const names = (Array.isArray(type) ? type : [type]).map((name) => typeWord(String(name)));
		return `must be ${alternatives(names)}, got ${describeValue(value)}`;
	},
	const: (schema, value: unknown) =>
		`must be ${schemaLiteral(schema.const)}, got ${literal(value)}`,
	enum: (schema, value: unknown) => {
		const allowed = Array.isArray(schema.enum) ? schema.enum.map(schemaLiteral) : [];
		if (allowed.length === 0) return 'is not allowed here: "enum" lists no value';
		const must = allowed.length === 1 ? 'must be' : 'must be one of';
		return `${must} ${listSome(allowed)}, got ${literal(value)}`;
	},
	not: (schema) =>
		JSON.stringify(schema.not) === '{}'
			? 'is not allowed here'
			: 'must not match the shape given under "not"',
	minimum: number,
	maximum: number,
	exclusiveMinimum: number,
	exclusiveMaximum: number,
	multipleOf: number,
	minLength: length,
	maxLength: length,
	pattern: (schema, value: string) =>
		`must match the pattern "${String(schema.pattern)}", got ${describeValue(value)}`,
	minItems: items,
	maxItems: items,
	uniqueItems: (_schema, value: unknown[]) => {
		const [first, second] = firstRepeat(value) ?? [];
		return `must not repeat an item, but [${first}] and [${second}] are the same`;
	},
	contains: () => 'must contain an item of the shape given under "contains"',
	minContains: contained,
	maxContains: contained,
	minProperties: properties,
	maxProperties: properties,
};

/**
 * The violations one failing keyword stands for, at `path` (the value's place) or, for a missing
 * property, at the place it is missing from; undefined for a keyword without a message here.
 */
export function keywordViolations(
	keyword: string,
	schema: JsonObject,
	value: unknown,
	path: string,
): Violation[] | undefined {
	if (keyword === 'required') return missing(schema.required, value, path, '');
	if (keyword === 'dependentRequired') return dependentMissing(schema, value, path);
	if (!Object.hasOwn(MESSAGES, keyword)) return undefined;
	return [{ path, message: MESSAGES[keyword](schema, value as never, keyword) }];
}

/** `required`: each name the object does not have. */
function missing(names: unknown, value: unknown, path: string, when: string): Violation[] {
	const object = isObject(value) ? value : {};
	return (Array.isArray(names) ? names : [])
		.filter((name) => typeof name === 'string' && !Object.hasOwn(object, name))
		.map((name: string) => ({
			path: keyPath(path, name),
			message: `is required${when} but missing`,
		}));
}

/** `dependentRequired`: for each property the object has, the names that must come with it. */
function dependentMissing(schema: JsonObject, value: unknown, path: string): Violation[] {
	const rules = isObject(schema.dependentRequired) ? schema.dependentRequired : {};
	return Object.entries(rules)
		.filter(([name]) => isObject(value) && Object.hasOwn(value, name))
		.flatMap(([name, names]) => missing(names, value, path, ` when ${quote(name)} is there,`));
}
