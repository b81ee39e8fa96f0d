/**
 * A JSON Schema validator that interprets the schema as it goes: no generated code, no eval.
 *
 * Keywords it checks:
 * - type: one name or a list of names: string, number, integer (a number without a fraction),
 *   boolean, object, array, null
 * - enum, const (JSON equality: object keys in any order)
 * - properties, required, additionalProperties (false or a schema), patternProperties
 * - prefixItems, items (one schema for every item after prefixItems), minItems, maxItems,
 *   uniqueItems
 * - minLength, maxLength (counted in Unicode code points), pattern (a Unicode regular expression
 *   that may match anywhere in the text)
 * - minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers, as in draft 2020-12), multipleOf
 * - allOf, anyOf, oneOf, not
 * - $ref to "#" or a JSON Pointer inside the schema ("#/$defs/name", "#/definitions/name"), applied
 *   together with the keywords next to it; $defs and definitions hold the schemas it refers to
 * - the boolean schemas true (allows anything) and false (allows nothing)
 *
 * Every other keyword is ignored: annotations (title, description, default, examples, format,
 * $schema, $id, $comment) and keywords this validator does not know. A keyword whose value has the
 * wrong form (say a `minimum` that is text) is ignored as well, so that a broken schema never makes
 * validation throw; a type name that does not exist matches no value. `checkSchema` finds those
 * mistakes and is meant to run first.
 *
 * A value of the wrong type, or outside enum or const, gets that one violation and no more from the
 * same schema: "must be a number, got the text "12 EUR"" says all there is to say.
 */
import {
	alternatives,
	describeValue,
	listSome,
	literal,
	schemaLiteral,
	typeWord,
} from './describe-value';
import { hasType, isObject, isSchema, sameJson, type JsonObject } from './json-values';
import { checkArray } from './array-keywords';
import { checkObject } from './object-keywords';
import { resolveRef } from './ref';
import { attempt, isFull, report, startRun, type Run } from './run';
import { checkNumber, checkString } from './scalar-keywords';
import type { Violation } from './types';

/** How many schemas may apply one inside the other: a `$ref` that refers to itself stops here. */
const MAX_DEPTH = 256;

/**
 * The ways `value` fails `schema`, at most `limit` of them (at least one is always allowed); none
 * when it passes. `value` is JSON data, e.g. from JSON.parse. Paths start at `$`:
 * `$.items[2].price`.
 */
export function validateValue(schema: unknown, value: unknown, limit = 20): Violation[] {
	const run = startRun(schema, Math.max(1, limit));
	apply(schema, value, '$', run);
	return run.violations;
}

function apply(schema: unknown, value: unknown, path: string, run: Run): void {
	if (isFull(run)) return;
	if (schema === false) return report(run, path, 'is not allowed here');
	if (!isObject(schema)) return;
	if (run.depth >= MAX_DEPTH) {
		const why = `schemas nest more than ${MAX_DEPTH} levels deep here (does a "$ref" lead back to itself?)`;
		return report(run, path, `cannot be checked: ${why}`);
	}
	run.depth++;
	applyKeywords(schema, value, path, run);
	run.depth--;
}

function applyKeywords(schema: JsonObject, value: unknown, path: string, run: Run): void {
	const types = typeNames(schema.type);
	if (types !== undefined && !types.some((type) => hasType(value, type))) {
		return report(
			run,
			path,
			`must be ${alternatives(types.map(typeWord))}, got ${describeValue(value)}`,
		);
	}
	if (Object.hasOwn(schema, 'const') && !sameJson(schema.const, value)) {
		return report(run, path, `must be ${schemaLiteral(schema.const)}, got ${literal(value)}`);
	}
	const allowed = schema.enum;
	if (
		Array.isArray(allowed) &&
		allowed.length > 0 &&
		!allowed.some((item) => sameJson(item, value))
	) {
		const choices = listSome(allowed.map(schemaLiteral));
		const must = allowed.length === 1 ? `must be ${choices}` : `must be one of ${choices}`;
		return report(run, path, `${must}, got ${literal(value)}`);
	}
	if (typeof value === 'string') checkString(schema, value, path, run);
	else if (typeof value === 'number') checkNumber(schema, value, path, run);
	else if (Array.isArray(value)) checkArray(schema, value, path, run, apply);
	else if (isObject(value)) checkObject(schema, value, path, run, apply);
	applyInPlace(schema, value, path, run);
}

/** The keywords that apply other schemas to the same value: $ref, allOf, anyOf, oneOf, not. */
function applyInPlace(schema: JsonObject, value: unknown, path: string, run: Run): void {
	if (typeof schema.$ref === 'string') {
		const resolved = resolveRef(run.root, schema.$ref);
		if (resolved.ok) apply(resolved.target, value, path, run);
	}
	for (const member of schemaList(schema.allOf)) apply(member, value, path, run);
	const anyOf = schemaList(schema.anyOf);
	if (anyOf.length > 0 && !isFull(run)) applyAnyOf(anyOf, value, path, run);
	const oneOf = schemaList(schema.oneOf);
	if (oneOf.length > 0 && !isFull(run)) applyOneOf(oneOf, value, path, run);
	if (
		isSchema(schema.not) &&
		!isFull(run) &&
		firstViolation(schema.not, value, path, run) === undefined
	) {
		report(run, path, 'must not match the shape given under "not"');
	}
}

/** A single choice is applied as it stands, so that its violations come through unchanged. */
function applyAnyOf(choices: readonly unknown[], value: unknown, path: string, run: Run): void {
	if (choices.length === 1) return apply(choices[0], value, path, run);
	const failures: Violation[] = [];
	for (const choice of choices) {
		const failure = firstViolation(choice, value, path, run);
		if (failure === undefined) return;
		failures.push(failure);
	}
	report(run, path, matchesNone(failures, path));
}

function applyOneOf(choices: readonly unknown[], value: unknown, path: string, run: Run): void {
	if (choices.length === 1) return apply(choices[0], value, path, run);
	const failures: Violation[] = [];
	let matches = 0;
	for (const choice of choices) {
		const failure = firstViolation(choice, value, path, run);
		if (failure !== undefined) failures.push(failure);
		else if (++matches > 1) {
			const count = choices.length;
			return report(
				run,
				path,
				`matches more than one of the ${count} allowed shapes, but must match exactly one`,
			);
		}
	}
	if (matches === 0) report(run, path, matchesNone(failures, path));
}

/**
 * "matches none of the 3 allowed shapes (closest: …)". The closest shape is the one whose first
 * violation lies deepest in the value: that shape got furthest, so its complaint is the one most
 * worth fixing.
 */
function matchesNone(failures: readonly Violation[], path: string): string {
	let closest = failures[0];
	for (const failure of failures) {
		if (failure.path.length > closest.path.length) closest = failure;
	}
	const detail = closest.path === path ? closest.message : `${closest.path}: ${closest.message}`;
	return `matches none of the ${failures.length} allowed shapes (closest: ${detail})`;
}

function firstViolation(
	schema: unknown,
	value: unknown,
	path: string,
	run: Run,
): Violation | undefined {
	const trial = attempt(run);
	apply(schema, value, path, trial);
	return trial.violations[0];
}

/**
 * The names `type` gives, or undefined when it gives none in a usable form (then it is not
 * checked).
 */
function typeNames(type: unknown): string[] | undefined {
	if (typeof type === 'string') return [type];
	if (
		Array.isArray(type) &&
		type.length > 0 &&
		type.every((name): name is string => typeof name === 'string')
	) {
		return type;
	}
	return undefined;
}

function schemaList(value: unknown): readonly unknown[] {
	return Array.isArray(value) ? value : [];
}
