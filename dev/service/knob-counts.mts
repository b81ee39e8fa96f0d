/**
 * Per-id request counts of the counting knobs (`fail_first`, `invalid_json`), and when `fail_first`'s next
 * request is due under `strict_retry_after`, since start or the last DELETE /__control/requests. Each knob
 * counts apart, so one id can serve both in one test.
 */
export class KnobCounts {
	readonly #seen = new Map<string, number>();
	/** Per knob and id: no request is due before this instant (Unix ms), after a failure with Retry-After. */
	readonly #dueAt = new Map<string, number>();

	/** Counts one more request carrying `id` for `knob`; returns the count, 1 for the first. */
	next(knob: string, id: string): number {
		const name = `${knob}\u0000${id}`;
		const seen = (this.#seen.get(name) ?? 0) + 1;
		this.#seen.set(name, seen);
		return seen;
	}

	/** When a request carrying `id` is next due for `knob` (0 when it may come at once). */
	dueAt(knob: string, id: string): number {
		return this.#dueAt.get(`${knob}\u0000${id}`) ?? 0;
	}

	setDueAt(knob: string, id: string, at: number): void {
		this.#dueAt.set(`${knob}\u0000${id}`, at);
	}

	clear(): void {
		this.#seen.clear();
		this.#dueAt.clear();
	}
}
