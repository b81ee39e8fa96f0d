/**
 * The `invalid_json` knob: the first N JSON answers for an id are invalid, later ones valid, so that a
 * client's check and its repair round can be tested. `syntax`: the JSON text cut in the middle (a JSON
 * object or array then lacks its closing bracket); `schema`: parsable but against the schema (the first
 * required property missing, or, when the schema requires none, a value of another type). Requests that fail
 * before the model answers (fail_first, reset, reject_response_format) spend none of the invalid answers.
 */
import { jsonText, isObject, type Json } from './json-value.mts';
import type { KnobCounts } from './knob-counts.mts';
import type { InvalidJson, InvalidJsonMode } from './knobs.mts';
import { dereference } from './schema-example.mts';

/** Counts this request; the knob's mode while its id has been seen at most `count` times. */
export function invalidJsonMode(
	knob: InvalidJson | undefined,
	counts: KnobCounts,
): InvalidJsonMode | undefined {
	if (knob === undefined) return undefined;
	return counts.next('invalid_json', knob.id) <= knob.count ? knob.mode : undefined;
}

/** `value` (valid for `schema`) changed so that it breaks the schema. */
function schemaViolation(value: unknown, schema: Json): unknown {
	const top = dereference(schema, schema);
	const required = isObject(top) && Array.isArray(top.required) ? top.required : [];
	const dropped = required.find((name) => isObject(value) && Object.hasOwn(value, name));
	if (isObject(value) && typeof dropped === 'string') {
		return Object.fromEntries(Object.entries(value).filter(([name]) => name !== dropped));
	}
	return typeof value === 'string' ? 0 : 'not what the schema asks for';
}

/** The JSON text of `value`, made invalid the way `mode` says. */
export function invalidJsonText(value: unknown, schema: Json, mode: InvalidJsonMode): string {
	if (mode === 'schema') return jsonText(schemaViolation(value, schema));
	const text = jsonText(value);
	return text.slice(0, Math.ceil(text.length / 2));
}
