/** A queue read with `for await`: what a callback pushes comes out in order, until it is closed. */
export class Channel<T> implements AsyncIterable<T> {
	private readonly items: T[] = [];
	private closed = false;
	private wake?: () => void;

	push(item: T): void {
		this.items.push(item);
		this.wake?.();
	}

	close(): void {
		this.closed = true;
		this.wake?.();
	}

	async *[Symbol.asyncIterator](): AsyncIterator<T> {
		for (;;) {
			while (this.items.length > 0) yield this.items.shift() as T;
			if (this.closed) return;
			await new Promise<void>((resolve) => (this.wake = resolve));
			this.wake = undefined;
		}
	}
}
