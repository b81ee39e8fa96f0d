/** Summaries the benchmarks print. */

/** The middle value (the upper one of the two middles for an even count). */
export const median = (values: number[]): number =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const mean = (values: number[]): number =>
	values.reduce((sum, value) => sum + value, 0) / values.length;

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
