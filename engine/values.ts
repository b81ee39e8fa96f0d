import { InputError } from './failures/errors';

type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

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
