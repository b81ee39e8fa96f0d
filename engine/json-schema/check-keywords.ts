import { addProblem, type Check } from './check-context';
import { describeValue, listSome, quote } from './describe-value';
import { isObject, type JsonObject } from './json-values';
import { indexPath, keyPath } from './path';
import { compilePattern } from './pattern';
import { suggest } from './suggest';
import { JSON_TYPES } from './types';

/** The fix for `"required": true` inside a property, the way draft 3 marked required properties. */
const PARENT_REQUIRED =
	'name required properties in the "required" list of the object that holds them, e.g. "required": ["email"]';

/** The fix for draft 4's `"exclusiveMinimum": true`, which qualified `minimum`. */
const BOUND_ITSELF =
	'give the bound itself, e.g. 0 (the true/false form of older drafts is not supported)';

/** Pairs of bounds that, the wrong way round, let no value pass. */
const RANGES = [
	['minLength', 'maxLength'],
	['minItems', 'maxItems'],
	['minContains', 'maxContains'],
	['minProperties', 'maxProperties'],
	['minimum', 'maximum'],
] as const;

/** `type`: a known type name, or a non-empty list of them. */
export function checkType(value: unknown, path: string, check: Check): void {
	if (typeof value === 'string') return checkTypeName(value, path, check);
	if (!Array.isArray(value)) {
		const message = 'must be a type name such as "string", or a list of them';
		return addProblem(check, path, `${message}, got ${describeValue(value)}`);
	}
	if (value.length === 0) return addProblem(check, path, 'must name at least one type');
	value.forEach((name, index) => {
		const at = indexPath(path, index);
		if (typeof name === 'string') checkTypeName(name, at, check);
		else addProblem(check, at, `must be a type name such as "string", got ${describeValue(name)}`);
	});
}

function checkTypeName(name: string, path: string, check: Check): void {
	if (JSON_TYPES.includes(name)) return;
	const meant = suggest(name, JSON_TYPES);
	const hint =
		meant === undefined
			? `the types are ${listSome(JSON_TYPES.map((type) => `"${type}"`))}`
			: `did you mean "${meant}"?`;
	addProblem(check, path, `${quote(name)} is not a JSON Schema type; ${hint}`);
}

/** `enum`: a non-empty list of the allowed values. */
export function checkEnum(value: unknown, path: string, check: Check): void {
	if (!Array.isArray(value) || value.length === 0) {
		const got = describeValue(value);
		addProblem(check, path, `must be a non-empty list of the allowed values, got ${got}`);
	}
}

/** `required`: a list of names, each in `properties` when the same schema has `properties`. */
export function checkRequired(
	value: unknown,
	path: string,
	check: Check,
	schema: JsonObject,
): void {
	if (!Array.isArray(value)) {
		const hint = typeof value === 'boolean' ? `; ${PARENT_REQUIRED}` : '';
		const message = `must be a list of property names, got ${describeValue(value)}`;
		return addProblem(check, path, `${message}${hint}`);
	}
	const { properties } = schema;
	value.forEach((name, index) => {
		const at = indexPath(path, index);
		if (typeof name !== 'string') {
			addProblem(check, at, `must be a property name, got ${describeValue(name)}`);
		} else if (isObject(properties) && !Object.hasOwn(properties, name)) {
			const meant = suggest(name, Object.keys(properties));
			const hint = meant === undefined ? '' : `; did you mean ${quote(meant)}?`;
			addProblem(check, at, `${quote(name)} is not defined in "properties"${hint}`);
		}
	});
}

/** `dependentRequired`: for each property name, the list of names that must come with it. */
export function checkDependentRequired(value: unknown, path: string, check: Check): void {
	const lists = isObject(value) ? Object.values(value) : [value];
	if (
		!lists.every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string'))
	) {
		const message = 'must be an object with a list of property names for each name';
		addProblem(check, path, `${message}, got ${describeValue(value)}`);
	}
}

/** minLength, maxLength, minItems, maxItems, minContains, maxContains, minProperties, maxProperties: a count. */
export function checkCount(value: unknown, path: string, check: Check): void {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
		addProblem(check, path, `must be a whole number of 0 or more, got ${describeValue(value)}`);
	}
}

/** minimum, maximum: a number. */
export function checkBound(value: unknown, path: string, check: Check): void {
	if (typeof value !== 'number') {
		addProblem(check, path, `must be a number, got ${describeValue(value)}`);
	}
}

/** exclusiveMinimum, exclusiveMaximum: a number (draft 4 made them true/false, hence the hint). */
export function checkExclusiveBound(value: unknown, path: string, check: Check): void {
	if (typeof value === 'number') return;
	const hint = typeof value === 'boolean' ? `; ${BOUND_ITSELF}` : '';
	addProblem(check, path, `must be a number, got ${describeValue(value)}${hint}`);
}

export function checkMultipleOf(value: unknown, path: string, check: Check): void {
	if (typeof value !== 'number' || value <= 0) {
		addProblem(check, path, `must be a number greater than 0, got ${describeValue(value)}`);
	}
}

/** uniqueItems: true or false. */
export function checkFlag(value: unknown, path: string, check: Check): void {
	if (typeof value !== 'boolean') {
		addProblem(check, path, `must be true or false, got ${describeValue(value)}`);
	}
}

/** pattern: a regular expression, as text, that compiles in Unicode mode. */
export function checkPattern(value: unknown, path: string, check: Check): void {
	if (typeof value !== 'string') {
		const got = describeValue(value);
		return addProblem(check, path, `must be a regular expression written as text, got ${got}`);
	}
	const problem = patternProblem(value);
	if (problem !== undefined) addProblem(check, path, problem);
}

/** Why `source` is not a usable pattern, or undefined when it is one. */
export function patternProblem(source: string): string | undefined {
	const compiled = compilePattern(source);
	if (compiled.ok) return undefined;
	return `${quote(source)} is not a valid regular expression (${compiled.reason})`;
}

/** A lower bound above its upper bound (minLength 5 with maxLength 3) lets no value pass. */
export function checkRanges(schema: JsonObject, path: string, check: Check): void {
	for (const [low, high] of RANGES) {
		const min = schema[low];
		const max = schema[high];
		if (typeof min === 'number' && typeof max === 'number' && min > max) {
			const message = `${min} is more than ${high} ${max}, so no value can pass`;
			addProblem(check, keyPath(path, low), message);
		}
	}
}
