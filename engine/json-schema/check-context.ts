import type { JsonObject } from './json-values';
import type { SchemaProblem } from './types';

/** One schema check: the whole schema (what `#` refers to) and the problems found so far. */
export interface Check {
	readonly root: unknown;
	readonly problems: SchemaProblem[];
}

/** Checks one keyword's value; `path` is the keyword's place, `schema` the object that holds it. */
export type KeywordCheck = (value: unknown, path: string, check: Check, schema: JsonObject) => void;

export function addProblem(check: Check, path: string, message: string): void {
	check.problems.push({ path, message });
}
