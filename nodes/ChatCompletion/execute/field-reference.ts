import type { IDataObject } from 'n8n-workflow';

import { values } from '../../../engine';

/** One step after `$json` (`.a` or `["a b"]`): a name, or a key in single or double quotes. */
const STEP_SOURCE = String.raw`\.([A-Za-z_$][\w$]*)|\[\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\]`;
const STEP = new RegExp(STEP_SOURCE, 'y');
/** The whole saved value: `={{ $json` and its steps `}}`, nothing around it. */
const WHOLE = new RegExp(String.raw`^=\{\{\s*\$json((?:${STEP_SOURCE})+)\s*\}\}$`);
/** Names n8n's expression sandbox guards; an expression that uses them is left to n8n. */
const GUARDED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path of a saved parameter value that is exactly one field of the item's JSON, such as
 * `={{ $json.prompt }}` or `={{ $json.row["question text"] }}`, the most common expression in a batch;
 * undefined for anything else (other text around it, a method call, another variable).
 */
export function fieldReference(raw: unknown): string[] | undefined {
	if (typeof raw !== 'string') return undefined;
	const steps = WHOLE.exec(raw)?.[1];
	if (steps === undefined) return undefined;
	const path: string[] = [];
	STEP.lastIndex = 0;
	for (let step = STEP.exec(steps); step !== null; step = STEP.exec(steps)) {
		const name = step[1] ?? step[2] ?? step[3];
		if (GUARDED.has(name)) return undefined;
		path.push(name);
	}
	return path;
}

/**
 * The text at `path` in an item's JSON, read through own properties of plain objects only; undefined
 * when the field is missing or holds anything but text, so that n8n resolves those cases itself and
 * keeps its own results and errors.
 */
export function textAt(json: IDataObject | undefined, path: string[]): string | undefined {
	let value: unknown = json;
	for (const name of path) {
		if (!values.isPlainObject(value) || !Object.hasOwn(value, name)) return undefined;
		value = value[name];
	}
	return typeof value === 'string' ? value : undefined;
}
