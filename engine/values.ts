import { InputError } from './failures/errors';

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** JSON.parse without throwing, for callers that turn a failure into their own message. */
export function tryParseJson(text: string): JsonParse {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		return { ok: false, reason: (error as Error).message };
	}
}

/** Describes a value in an error message without dumping large or secret-looking content: `got 0`, `got the text "warm"`, `got nothing`. */
export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return `the text ${quoted(value)}`;
	return String(value);
}

/** Names a value the user chose from a set (a role, a mode): text in quotes, anything else described. */
export function named(value: unknown): string {
	return typeof value === 'string' ? quoted(value) : describe(value);
}

function quoted(text: string): string {
	return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}

/** `4.2 MB`: a size in bytes as messages show it (MiB, one decimal). */
export function megabytes(size: number): string {
	return `${(size / 1024 / 1024).toFixed(1)} MB`;
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

/** `{{ $json.a.b }}`, `{{ $json["a b"] }}`, `{{ $json.list[0] }}` (optional chaining allowed): the path it reads. */
const JSON_PATH =
	/^\{\{\s*\$json((?:\??\.[A-Za-z_$][\w$]*|\??\.?\[\s*(?:"[^"]*"|'[^']*'|\d+)\s*\])+)\s*\}\}$/;
const PATH_SEGMENT = /[A-Za-z_$][\w$]*|"[^"]*"|'[^']*'|\d+/g;

function jsonPath(expression: string): string[] | undefined {
	const match = JSON_PATH.exec(expression.trim());
	if (!match) return undefined;
	return (match[1].match(PATH_SEGMENT) ?? []).map((segment) =>
		/^["']/.test(segment) ? segment.slice(1, -1) : segment,
	);
}

/**
 * Why a field's expression (`={{ $json.text }}`) gave nothing for an item, in words: the field of the input
 * item it reads is missing, when the expression is a plain `$json` path; else only that it gave nothing.
 */
export function emptyExpression(expression: string, itemJson: unknown): string {
	const shown = expression.replace(/^=/, '').trim();
	const quotedExpression = shown.length > 60 ? `${shown.slice(0, 60)}…` : shown;
	const its = `is empty because its expression ${quotedExpression}`;
	const path = jsonPath(shown);
	if (path === undefined) return `${its} gives nothing`;
	let value: unknown = itemJson;
	for (const [depth, segment] of path.entries()) {
		const next =
			typeof value === 'object' && value !== null
				? (value as Record<string, unknown>)[segment]
				: undefined;
		if (next === undefined) {
			return depth === 0
				? `${its} finds no field "${segment}" in the input item`
				: `${its} finds no "${segment}" in the input item's field "${path.slice(0, depth).join('.')}"`;
		}
		value = next;
	}
	return `${its} gives nothing`;
}

/** Splits a list of names typed in one field: by commas, line breaks or spaces. */
export function splitList(value: unknown, field: string): string[] {
	return textEntries(value, field).flatMap((entry) =>
		entry.split(/[\s,]+/).filter((word) => word !== ''),
	);
}

/** The text entries of a field: one text, or a list from an expression. */
export function textEntries(value: unknown, field: string): string[] {
	if (value === undefined || value === null || value === '') return [];
	return (Array.isArray(value) ? value : [value]).map((entry: unknown) => {
		if (typeof entry !== 'string') {
			throw new InputError(
				field,
				`must be text, got ${describe(entry)}`,
				'List the entries one per line.',
			);
		}
		return entry;
	});
}

/** A text the service needs, non-empty, as it is; else the error that names `field`, with `fix`. */
export function requiredText(value: unknown, field: string, fix: string): string {
	if (typeof value === 'string' && value.trim() !== '') return value;
	const problem = typeof value === 'string' ? 'is empty' : `must be text, got ${describe(value)}`;
	throw new InputError(field, problem, fix);
}
