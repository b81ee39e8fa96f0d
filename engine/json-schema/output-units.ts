import type { OutputUnit } from '@cfworker/json-schema';

import { listSome, quote } from './describe-value';
import { isObject } from './json-values';
import { keywordViolations } from './keyword-messages';
import type { PreparedSchema } from './library';
import { locationSteps, schemaAt, valueAt } from './locations';
import type { Violation } from './types';

/** What the library's output is read against: the value checked and the schema it was checked with. */
export interface Reading {
	readonly value: unknown;
	readonly prepared: PreparedSchema;
	/** Below `propertyNames`, where the value a unit is about is the name of a property. */
	readonly names?: boolean;
}

/** A value of the wrong type, or outside const or enum, gets that one violation from its schema. */
const DECISIVE = ['type', 'const', 'enum'];

/**
 * The library's output units as violations in our words, the first `limit` of them. The units come
 * in the order the library found them, each failing subschema announced by a unit right before the
 * units from inside it (those whose keyword location continues the announcing unit's).
 */
export function describeUnits(
	units: readonly OutputUnit[],
	reading: Reading,
	limit = Infinity,
): Violation[] {
	const shown = withoutContainsItems(units);
	const violations: Violation[] = [];
	const forbidden = new Map<string, { violation: Violation; names: string[] }>();
	const seen = new Set<string>();
	let decided = { below: '', at: '' };
	for (let index = 0; index < shown.length && violations.length < limit; index++) {
		const unit = shown[index];
		const { keyword, keywordLocation, instanceLocation } = unit;
		if (keywordLocation.startsWith(decided.below) && isWithin(instanceLocation, decided.at)) {
			continue;
		}
		const end = subtreeEnd(shown, index);
		const inside = shown.slice(index + 1, end);
		const holder = schemaAt(reading.prepared, locationSteps(keywordLocation).slice(0, -1));
		const { value, path } = placeOf(reading, instanceLocation);
		if (keyword === 'anyOf' || keyword === 'oneOf') {
			const choices = isObject(holder) && Array.isArray(holder[keyword]) ? holder[keyword] : [];
			violations.push(...describeChoice(unit, choices.length, inside, path, reading));
		} else if (keyword === 'propertyNames') {
			const named = describeUnits(inside, { ...reading, names: true });
			violations.push(
				...named.map((found) => ({ ...found, message: `its name ${found.message}` })),
			);
		} else if (isForbidding(keyword, holder)) {
			// One unit per property, and the unit below it is at the property.
			const group = `${keywordLocation} ${instanceLocation}`;
			const entry = forbidden.get(group) ?? { violation: { path, message: '' }, names: [] };
			if (entry.names.length === 0) violations.push(entry.violation);
			forbidden.set(group, entry);
			entry.names.push(locationSteps(inside[0]?.instanceLocation ?? '').pop() ?? '');
			entry.violation.message = notAllowed(entry.names);
		} else if (inside.length > 0 || keyword === 'if') {
			continue; // announces a failing subschema (`if`: then or else): the units after it say how
		} else {
			const group = `${keyword} ${keywordLocation} ${instanceLocation}`;
			if (seen.has(group)) continue; // required and dependentRequired: a unit per missing name
			seen.add(group);
			const found = isObject(holder) ? keywordViolations(keyword, holder, value, path) : undefined;
			violations.push(...(found ?? [{ path, message: unit.error }]));
			if (DECISIVE.includes(keyword)) {
				decided = { below: `${keywordLocation.slice(0, -keyword.length)}`, at: instanceLocation };
			}
		}
		index = end - 1;
	}
	return violations;
}

/**
 * anyOf and oneOf: "matches none of the 3 allowed shapes (closest: …)", where the closest shape is
 * the one whose first violation lies deepest in the value (it got furthest, so its complaint is the
 * one most worth fixing). A single choice reports its own violations.
 */
function describeChoice(
	unit: OutputUnit,
	choices: number,
	inside: readonly OutputUnit[],
	path: string,
	reading: Reading,
): Violation[] {
	const failing = Array.from({ length: choices }, (_, index) => {
		const below = `${unit.keywordLocation}/${index}/`;
		return inside.filter((member) => member.keywordLocation.startsWith(below));
	}).filter((units) => units.length > 0);
	if (choices - failing.length > 1) {
		const message = `matches more than one of the ${choices} allowed shapes, but must match exactly one`;
		return [{ path, message }];
	}
	if (choices === 1) return describeUnits(failing[0] ?? [], reading);
	let closest: Violation | undefined;
	for (const units of failing) {
		const first = describeUnits(units, reading).at(0);
		if (first !== undefined && first.path.length > (closest?.path.length ?? -1)) closest = first;
	}
	const detail = closest?.path === path ? closest.message : `${closest?.path}: ${closest?.message}`;
	return [{ path, message: `matches none of the ${choices} allowed shapes (closest: ${detail})` }];
}

/** additionalProperties or unevaluatedProperties that allow no property (prepared as `{not: {}}`). */
function isForbidding(keyword: string, holder: unknown): boolean {
	const schema = isObject(holder) ? holder[keyword] : undefined;
	return (
		(keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') &&
		JSON.stringify(schema) === '{"not":{}}'
	);
}

function notAllowed(names: readonly string[]): string {
	const noun = names.length === 1 ? 'the property' : 'the properties';
	return `has ${noun} ${listSome(names.map((name) => quote(name)))} that the schema does not allow`;
}

function placeOf(reading: Reading, instanceLocation: string): { value: unknown; path: string } {
	const steps = locationSteps(instanceLocation);
	const place = valueAt(reading.value, steps);
	return reading.names ? { path: place.path, value: steps.at(-1) } : place;
}

/** Where the units from inside `shown[index]`'s part of the schema end. */
function subtreeEnd(shown: readonly OutputUnit[], index: number): number {
	const below = `${shown[index].keywordLocation}/`;
	let end = index + 1;
	while (end < shown.length && shown[end].keywordLocation.startsWith(below)) end++;
	return end;
}

function isWithin(location: string, place: string): boolean {
	return location === place || location.startsWith(`${place}/`);
}

/** The units without the items that failed `contains`, which the library keeps when too few matched. */
function withoutContainsItems(units: readonly OutputUnit[]): OutputUnit[] {
	const containsChecks = units
		.filter((unit) => unit.keyword === 'minContains')
		.map((unit) => unit.keywordLocation.replace(/minContains$/, 'contains/'));
	return units.filter(
		(unit) => !containsChecks.some((below) => unit.keywordLocation.startsWith(below)),
	);
}
