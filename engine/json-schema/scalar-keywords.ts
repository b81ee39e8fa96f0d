import { count, describeValue } from './describe-value';
import type { JsonObject } from './json-values';
import { isFull, regexFor, report, type Run } from './run';

interface NumberBound {
	keyword: string;
	/** Whether `value` is on the wrong side of `bound`. */
	breaks: (value: number, bound: number) => boolean;
	words: string;
}

const NUMBER_BOUNDS: readonly NumberBound[] = [
	{ keyword: 'minimum', breaks: (value, bound) => value < bound, words: 'at least' },
	{ keyword: 'exclusiveMinimum', breaks: (value, bound) => value <= bound, words: 'greater than' },
	{ keyword: 'maximum', breaks: (value, bound) => value > bound, words: 'at most' },
	{ keyword: 'exclusiveMaximum', breaks: (value, bound) => value >= bound, words: 'less than' },
];

/** minLength, maxLength (in Unicode code points, so an emoji counts once) and pattern. */
export function checkString(schema: JsonObject, value: string, path: string, run: Run): void {
	const { minLength, maxLength, pattern } = schema;
	if (typeof minLength === 'number' || typeof maxLength === 'number') {
		const length = codePoints(value);
		if (typeof minLength === 'number' && length < minLength) {
			report(run, path, `must be at least ${count(minLength, 'character')} long, got ${length}`);
		}
		if (typeof maxLength === 'number' && length > maxLength) {
			report(run, path, `must be at most ${count(maxLength, 'character')} long, got ${length}`);
		}
	}
	if (typeof pattern === 'string' && !isFull(run)) {
		const regex = regexFor(run, pattern);
		if (regex !== undefined && !regex.test(value)) {
			report(run, path, `must match the pattern "${pattern}", got ${describeValue(value)}`);
		}
	}
}

/**
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers, as in draft 2020-12) and
 * multipleOf.
 */
export function checkNumber(schema: JsonObject, value: number, path: string, run: Run): void {
	for (const { keyword, breaks, words } of NUMBER_BOUNDS) {
		const bound = schema[keyword];
		if (typeof bound === 'number' && breaks(value, bound)) {
			report(run, path, `must be ${words} ${bound}, got ${value}`);
		}
	}
	const { multipleOf } = schema;
	if (typeof multipleOf === 'number' && multipleOf > 0 && !isMultiple(value, multipleOf)) {
		report(run, path, `must be a multiple of ${multipleOf}, got ${value}`);
	}
}

/** The length in code points: `text.length` counts an emoji or another astral character twice. */
function codePoints(text: string): number {
	let length = 0;
	for (let index = 0; index < text.length; length++) {
		index += (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
	}
	return length;
}

/**
 * Whether `value / step` is a whole number, allowing for binary fractions: 0.3 / 0.1 is
 * 2.9999999999999996, yet 0.3 is a multiple of 0.1 as written. The tolerance is a few units in the
 * last place of the quotient.
 */
function isMultiple(value: number, step: number): boolean {
	const quotient = value / step;
	return Math.abs(quotient - Math.round(quotient)) <= 4 * Number.EPSILON * Math.abs(quotient);
}
