import { InputError } from './failures';
import { tryParseJson } from './json';

/** Describes a value in an error message without dumping large or secret-looking content. */
export function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `the text "${shown}"`;
	}
	return `${typeof value} ${String(value)}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Accepts a number, or text that is a number (expressions often give text). */
function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Number(value);
		return Number.isFinite(parsed) ? parsed : undefined;
	}
	return undefined;
}

export function numberInRange(
	value: unknown,
	field: string,
	min: number,
	max: number,
	fix: string,
): number {
	const parsed = toNumber(value);
	if (parsed === undefined) {
		throw new InputError(
			field,
			`must be a number from ${min} to ${max}, got ${describe(value)}`,
			fix,
		);
	}
	if (parsed < min || parsed > max) {
		throw new InputError(field, `must be from ${min} to ${max}, got ${parsed}`, fix);
	}
	return parsed;
}

export function wholeNumber(
	value: unknown,
	field: string,
	min: number,
	fix: string,
	max?: number,
): number {
	const parsed = toNumber(value);
	const whole = parsed !== undefined && Number.isInteger(parsed);
	if (max !== undefined && (!whole || parsed < min || parsed > max)) {
		throw new InputError(
			field,
			`must be a whole number from ${min} to ${max}, got ${describe(value)}`,
			fix,
		);
	}
	if (!whole || parsed < min) {
		throw new InputError(
			field,
			`must be a whole number of at least ${min}, got ${describe(value)}`,
			fix,
		);
	}
	return parsed;
}

/** A JSON field may hold text (typed by the user) or an already parsed value (from an expression). */
export function parseJsonField(value: unknown, field: string, fix: string): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	const parsed = tryParseJson(value);
	if (!parsed.ok) throw new InputError(field, `is not valid JSON (${parsed.reason})`, fix);
	return parsed.value;
}
