/**
 * Starts tasks in the order they are added, while fewer than `room()` started tasks are unfinished. A task
 * that has started but waits for a limiter slot holds its whole chain of calls in memory; for 10,000 items
 * that is tens of MB. The tasks beyond what can soon be in flight wait here as plain functions instead.
 */
export class Admission<T> {
	readonly #queue: Array<{ task: () => Promise<T>; settle: (result: Promise<T>) => void }> = [];
	#running = 0;

	/** `room`: how many started tasks may be unfinished now (asked again each time a task ends). */
	constructor(private readonly room: () => number) {}

	/** Queues a task; resolves or rejects as the task does once it has run. */
	async add(task: () => Promise<T>): Promise<T> {
		return await new Promise<T>((settle) => {
			this.#queue.push({ task, settle });
			this.#admit();
		});
	}

	#admit(): void {
		while (this.#queue.length > 0 && this.#running < Math.max(1, this.room())) {
			const { task, settle } = this.#queue.shift()!;
			this.#running++;
			const result = task();
			settle(result);
			const finished = () => {
				this.#running--;
				this.#admit();
			};
			result.then(finished, finished);
		}
	}
}
