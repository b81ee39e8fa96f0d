import { compilePattern } from './pattern';
import type { Violation } from './types';

/** One validation: what `#` refers to, the violations found so far and how many to collect. */
export interface Run {
	readonly root: unknown;
	readonly limit: number;
	readonly violations: Violation[];
	/** Each `pattern` compiled once per validation (undefined: not a valid pattern). */
	readonly patterns: Map<string, RegExp | undefined>;
	/** How many schemas are being applied one inside the other; bounds recursive `$ref`s. */
	depth: number;
}

export function startRun(root: unknown, limit: number): Run {
	return { root, limit, violations: [], patterns: new Map(), depth: 0 };
}

/**
 * A run that only tries whether a value fits a subschema (anyOf, oneOf, not): it stops at the first
 * violation, which is all that deciding and explaining a failed attempt needs.
 */
export function attempt(run: Run): Run {
	return { root: run.root, limit: 1, violations: [], patterns: run.patterns, depth: run.depth };
}

export function report(run: Run, path: string, message: string): void {
	run.violations.push({ path, message });
}

/** Whether the run has collected as many violations as it may: then every check returns at once. */
export function isFull(run: Run): boolean {
	return run.violations.length >= run.limit;
}

/** The compiled form of a `pattern`, or undefined when it is not a valid regular expression. */
export function regexFor(run: Run, source: string): RegExp | undefined {
	if (!run.patterns.has(source)) {
		const compiled = compilePattern(source);
		run.patterns.set(source, compiled.ok ? compiled.regex : undefined);
	}
	return run.patterns.get(source);
}

/** Applies a schema to a value; keyword files take it as a parameter instead of importing it. */
export type ApplySchema = (schema: unknown, value: unknown, path: string, run: Run) => void;
