import { sleep } from 'n8n-workflow';

/** Timers fire at once beyond this many ms (2^31 - 1), so longer waits are taken in steps. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * Why a watch's timer stops when its request is over. Aborting with a reason of our own: without one,
 * `abort()` makes a DOMException, with its stack, for every request.
 */
const OVER = new Error('The request is over');

/** What ended a request before its reply was read: silence for the Timeout, or the cancel. */
export type WatchEnd = 'ETIMEDOUT' | 'ERR_CANCELED';

/**
 * What may end one request from the moment it is sent until its body is read: no bytes for `idleMs` (the
 * wait for the answer, whole or its headers; then for each next bytes of a body read as it comes: one timer
 * for the whole request, re-armed only when it fires) and the cancel signal. Whoever reads the request at
 * the time hears of the end (`onEnd`); `stop` leaves no timer and no listener behind.
 */
export class RequestWatch {
	#lastBytes = Date.now();
	#ended?: WatchEnd;
	#onEnd: (end: WatchEnd) => void = () => undefined;
	readonly #stop = new AbortController();
	readonly #cancelled = () => this.#end('ERR_CANCELED');

	constructor(
		readonly idleMs: number,
		private readonly cancel?: AbortSignal,
	) {
		if (cancel?.aborted) {
			this.#ended = 'ERR_CANCELED';
			return;
		}
		cancel?.addEventListener('abort', this.#cancelled);
		this.#idle().then(
			() => this.#end('ETIMEDOUT'),
			() => undefined,
		);
	}

	/** Bytes came: the wait for the next starts again. */
	bytes(): void {
		this.#lastBytes = Date.now();
	}

	/** From now on `handler` hears of the end (at once when the request has already ended). */
	onEnd(handler: (end: WatchEnd) => void): void {
		if (this.#ended === undefined) this.#onEnd = handler;
		else handler(this.#ended);
	}

	/** The request is over: the timer and the cancel listener go. */
	stop(): void {
		this.#stop.abort(OVER);
		this.cancel?.removeEventListener('abort', this.#cancelled);
	}

	#end(end: WatchEnd): void {
		if (this.#ended !== undefined) return;
		this.#ended = end;
		this.stop();
		this.#onEnd(end);
	}

	/** Resolves once `idleMs` (of any length) passed since the last bytes; rejects when stopped. */
	async #idle(): Promise<void> {
		let wait = this.idleMs;
		for (;;) {
			await sleep(Math.min(wait, LONGEST_TIMER_MS), this.#stop.signal);
			const idle = Date.now() - this.#lastBytes;
			if (idle >= this.idleMs) return;
			wait = this.idleMs - idle;
		}
	}
}
