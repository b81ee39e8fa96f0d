/**
 * Checks values against JSON Schema draft 2020-12 with @cfworker/json-schema (it interprets the
 * schema: no generated code, no eval), and says what is wrong in our words.
 *
 * Every keyword of draft 2020-12 is checked except `$dynamicRef` and `$dynamicAnchor` (which the
 * library ignores, and checkSchema refuses): type, enum, const; properties, patternProperties,
 * additionalProperties, required, dependentRequired, dependentSchemas, propertyNames,
 * minProperties, maxProperties, unevaluatedProperties; prefixItems, items, contains, minContains,
 * maxContains, minItems, maxItems, uniqueItems, unevaluatedItems; minLength, maxLength (in Unicode
 * code points), pattern (a Unicode regular expression that may match anywhere in the text);
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf; allOf, anyOf, oneOf, not,
 * if/then/else; `$ref` to any schema inside this one (`#`, a JSON Pointer such as `#/$defs/name`,
 * an `$anchor`, an `$id`), with the keywords next to it; the boolean schemas true and false.
 * `format` only annotates, as draft 2020-12 has it by default. Nothing is fetched: a `$ref` to
 * another document cannot be followed.
 *
 * A value of the wrong type, or outside enum or const, gets that one violation and no more from the
 * same schema: "must be a number, got the text "12 EUR"" says all there is to say.
 */
import { checkSchema } from './check-schema';
import { describeViolations } from './describe-violations';
import { repeatsAnywhere } from './json-values';
import { findViolations, prepareSchema } from './library';
import { describeUnits } from './output-units';
import type { Violation } from './types';

/**
 * The ways `value` fails `schema`, at most `limit` of them (at least one is always allowed); none
 * when it passes. `value` is JSON data, e.g. from JSON.parse. Paths start at `$`:
 * `$.items[2].price`. A schema that cannot be used (see checkSchema) gives one violation that says
 * why; this never throws.
 */
export function validateValue(schema: unknown, value: unknown, limit = 20): Violation[] {
	const most = Math.max(1, limit);
	try {
		const prepared = prepareSchema(schema, repeatsAnywhere(value));
		const units = findViolations(prepared, value);
		return describeUnits(units, { value, prepared }, most).slice(0, most);
	} catch (error) {
		return [{ path: '$', message: cannotCheck(schema, error) }];
	}
}

/** Why the library gave up: the schema's problems when checkSchema finds some, else its message. */
function cannotCheck(schema: unknown, error: unknown): string {
	const problems = checkSchema(schema);
	if (problems.length > 0) {
		return `cannot be checked, the schema is not usable: ${describeViolations(problems, 1)}`;
	}
	const message = error instanceof Error ? error.message : String(error);
	return `cannot be checked: ${message.split('\n')[0]}`;
}
