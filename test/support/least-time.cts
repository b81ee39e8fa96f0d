/**
 * For checks that a piece of work is not quadratic: how long it takes at least, over a few runs. A machine
 * busy with other work can stall one run for a moment; work that is too slow is slow on every run.
 */
export function leastTimeMs(run: () => unknown, budgetMs: number, tries = 3): number {
	let least = Infinity;
	for (let tried = 0; tried < tries && least > budgetMs; tried++) {
		const started = performance.now();
		try {
			run();
		} catch {
			// Only the time is measured here; what the run throws is the caller's check.
		}
		least = Math.min(least, performance.now() - started);
	}
	return least;
}
