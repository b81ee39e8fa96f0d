/**
 * Per-id request counts of the counting knobs (`fail_first`, `invalid_json`), since start or the last
 * DELETE /__control/requests. Each knob counts apart, so one id can serve both in one test.
 */
export class KnobCounts {
	readonly #seen = new Map<string, number>();

	/** Counts one more request carrying `id` for `knob`; returns the count, 1 for the first. */
	next(knob: string, id: string): number {
		const name = `${knob}\u0000${id}`;
		const seen = (this.#seen.get(name) ?? 0) + 1;
		this.#seen.set(name, seen);
		return seen;
	}

	clear(): void {
		this.#seen.clear();
	}
}
