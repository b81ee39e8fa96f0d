import type { JsonObject } from './json-values';
import type { PreparedSchema } from './library';
import type { SchemaProblem } from './types';

/** One schema check: the schema as the validator reads it, and the problems found so far. */
export interface Check {
	readonly prepared: PreparedSchema;
	readonly problems: SchemaProblem[];
}

/** Checks one keyword's value; `path` is the keyword's place, `schema` the object that holds it. */
export type KeywordCheck = (value: unknown, path: string, check: Check, schema: JsonObject) => void;

export function addProblem(check: Check, path: string, message: string): void {
	check.problems.push({ path, message });
}
