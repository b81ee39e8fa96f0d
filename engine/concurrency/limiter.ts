/**
 * The limiters every attempt takes a slot from: the run's, a fixed number in flight or Auto (`AUTO`: a
 * start and a cap; +1 per good answer, halved on a 429/503 overload), bounded further by a cap the run
 * gives (the Token Budget's room); and the key's (`keyLimiter`), no limit until a 429 names a cap on
 * requests in flight. `admission.ts`: jobs start only while there is room near the limit, so 10,000 items
 * do not wait as 10,000 started calls.
 */
import { sleep } from 'n8n-workflow';

/** How an attempt ended, for the limiter: fine, told the service is overloaded (429, 503), or failed otherwise. */
export type AttemptOutcome = 'ok' | 'overloaded' | 'failed';

/** One attempt's place in flight; given back with how the attempt ended. */
export interface Slot {
	/** `cap`: the cap on requests in flight the service named in its answer, if it named one. */
	release(outcome: AttemptOutcome, cap?: number): void;
}

/** Requests in flight, for one execution: every attempt takes a slot first, in the order asked. */
export interface Limiter {
	/** Waits for a free slot (first come, first served); rejects when `signal` aborts or the limiter closes. */
	acquire(signal?: AbortSignal): Promise<Slot>;
	/** No slot is given out any more: waiting and later requests reject with `LimiterClosed`. */
	close(): void;
	/** The most requests in flight now allowed (Auto changes it). */
	readonly limit: number;
	/** The requests in flight now. */
	readonly inFlight: number;
}

/** Why a request never started or was cancelled: a failure stopped the run (see run/run.ts). */
export class LimiterClosed extends Error {
	constructor() {
		super('No new request starts once the execution has stopped');
		this.name = 'LimiterClosed';
	}
}

export interface AutoSettings {
	/** Requests in flight at the start. */
	start: number;
	/** The most requests in flight Auto grows to. */
	max: number;
}

/**
 * Auto: starts with many requests in flight, as n8n's HTTP Request node sends every item as soon as it is
 * read, and adapts. The cap is also the most a fixed Concurrency may ask for.
 */
export const AUTO: AutoSettings = { start: 64, max: 128 };

interface Waiter {
	grant: (slot: Slot) => void;
	refuse: (error: unknown) => void;
}

/**
 * Slots for requests in flight. Fixed: exactly `limit` at a time. Auto (additive increase, multiplicative
 * decrease, as TCP does): grows by one slot per answer while no overload was seen (doubling each round
 * trip), then by one slot per round trip; halves on a 429 or 503 overload, at most once per round trip (an
 * overload answer to a request sent before the last decrease does not decrease again).
 */
class SlotLimiter implements Limiter {
	#limit: number;
	#inFlight = 0;
	#waiting: Waiter[] = [];
	#closed = false;
	#growing = true;
	/** Counts decreases: a request sent in an earlier epoch does not decrease again. */
	#epoch = 0;
	/** The cap on requests in flight the service named (`lowerTo`). */
	#named?: number;

	constructor(
		start: number,
		private readonly max: number,
		private readonly adaptive: boolean,
		/** A further bound on requests in flight, asked each time a slot could be given (the Token Budget's room). */
		private readonly cap: () => number,
	) {
		this.#limit = start;
	}

	/** Whether another request may start now. */
	#free(): boolean {
		return this.#inFlight < Math.min(this.limit, this.cap());
	}

	get limit(): number {
		return Math.floor(this.#limit);
	}

	get inFlight(): number {
		return this.#inFlight;
	}

	async acquire(signal?: AbortSignal): Promise<Slot> {
		if (this.#closed) throw new LimiterClosed();
		signal?.throwIfAborted();
		if (this.#free() && this.#waiting.length === 0) return this.#take();
		return await new Promise<Slot>((grant, refuse) => {
			const abandon = () => {
				this.#waiting = this.#waiting.filter((other) => other !== waiter);
				refuse(signal!.reason);
			};
			// The listener goes once the wait ends: left on a signal that outlives the request, it would keep
			// the request's whole chain (its body, socket and reader) in memory until the execution ends.
			const waiter: Waiter = {
				grant: (slot) => {
					signal?.removeEventListener('abort', abandon);
					grant(slot);
				},
				refuse: (error) => {
					signal?.removeEventListener('abort', abandon);
					refuse(error);
				},
			};
			this.#waiting.push(waiter);
			signal?.addEventListener('abort', abandon, { once: true });
		});
	}

	close(): void {
		this.#closed = true;
		for (const waiter of this.#waiting.splice(0)) waiter.refuse(new LimiterClosed());
	}

	#take(): Slot {
		this.#inFlight++;
		const epoch = this.#epoch;
		let released = false;
		return {
			release: (outcome, cap) => {
				if (released) return;
				released = true;
				this.#inFlight--;
				if (cap !== undefined) this.#lowerTo(cap, epoch);
				else if (this.adaptive) this.#adapt(outcome, epoch);
				else if (outcome === 'ok' && this.#named !== undefined) {
					this.#limit = Math.min(this.#named, this.#limit + 1 / (this.#limit * this.#named));
				}
				// After a failure the slot passes on in the next turn of the event loop: a failure that ends the
				// execution closes the limiter first (Run.stop), so that no request starts after it.
				if (outcome === 'ok') this.#grantWaiting();
				else void sleep(0).then(() => this.#grantWaiting());
			},
		};
	}

	/**
	 * The service named its cap on requests in flight (a 429 to a request sent in `epoch`): at most that many
	 * from now on. The other answers to the burst sent before it was known say nothing more. Told again by a
	 * request sent after that, the key had one more in flight than the cap (others share it: other workers in
	 * queue mode): one fewer from here for each such answer. Answers that come back fine grow it again, by one
	 * slot per as many round trips as the cap, up to the cap: slowly, since each slot too many costs a 429
	 * (every worker sharing the key probes for room).
	 */
	#lowerTo(cap: number, epoch: number): void {
		if (this.#limit > cap) {
			this.#limit = cap;
			this.#epoch++;
		} else if (epoch === this.#epoch) this.#limit = Math.max(1, Math.floor(this.#limit) - 1);
		this.#named = cap;
	}

	#adapt(outcome: AttemptOutcome, epoch: number): void {
		if (outcome === 'ok') {
			this.#limit = Math.min(this.max, this.#limit + (this.#growing ? 1 : 1 / this.#limit));
		} else if (outcome === 'overloaded' && epoch === this.#epoch) {
			this.#limit = Math.max(1, this.#limit / 2);
			this.#growing = false;
			this.#epoch++;
		}
	}

	#grantWaiting(): void {
		while (!this.#closed && this.#waiting.length > 0 && this.#free()) {
			this.#waiting.shift()!.grant(this.#take());
		}
	}
}

const NO_CAP = () => Infinity;

/** Exactly `count` requests in flight at a time (fewer while `cap` says so). */
export function fixedLimiter(count: number, cap = NO_CAP): Limiter {
	return new SlotLimiter(count, count, false, cap);
}

/** Requests in flight on one key, over every run that uses it: no limit until the service names one (`Slot.release`). */
export function keyLimiter(): Limiter {
	return new SlotLimiter(Infinity, Infinity, false, NO_CAP);
}

/** Auto: several requests in flight from the start, fewer when the service says it is overloaded (or `cap` says so). */
export function autoLimiter(settings: AutoSettings = AUTO, cap = NO_CAP): Limiter {
	return new SlotLimiter(settings.start, settings.max, true, cap);
}
