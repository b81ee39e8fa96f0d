/**
 * The key's one room (`keyState`, here, by Base URL and a hash of the key): what every run on one key
 * shares in the process, whichever node started it: the pauses a service asked for (`pause-gate.ts`; the
 * key's, and a model's when the 429 named the request's model), the pacing from the x-ratelimit headers
 * (`pacer.ts`), the cap on requests in flight a 429 named (its limiter), the window a 429 named
 * (`request-window.ts`), where Auto left off (`autoLimiter`). One door: `acquire` waits out the pauses,
 * the key's slot and the pacing within a request's `HoldBudget` (`hold-budget.ts`), and hands a lease the
 * request tells what it learned (`observe`, `spent`, `learn`, `release`).
 */
import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

import type { HoldBudget } from './hold-budget';
import { UNBOUNDED } from './hold-budget';
import { Pacer } from './pacer';
import { PauseGate } from './pause-gate';
import { RequestWindow } from './request-window';
import type { Limiter } from '../concurrency/limiter';
import { AUTO, autoLimiter, keyLimiter } from '../concurrency/limiter';
import type { ServiceError } from '../failures/errors';
import { PausedNotSent } from '../failures/errors';
import type { KeySign } from '../failures/kind';

/** A pause that holds a request: how long still, the answer that asked for it, and when it came (epoch ms). */
export interface Held {
	leftMs: number;
	cause?: ServiceError;
	causeAt?: number;
}

/** How a request asks the key for its turn (`KeyState.acquire`). */
export interface KeyAsk {
	signal: AbortSignal;
	/** The model asked: a pause the service set for another model does not hold it. */
	model?: string;
	/** How long the request may be held by the pauses and the pacing (`hold-budget.ts`). */
	hold?: HoldBudget;
	/** Whether the request was never sent yet: a pause it may not wait out fails it as not sent (`PausedNotSent`). */
	first?: boolean;
	/** Throws when the request must not be sent after all: checked once it has its turn, before it counts as sent. */
	ready?: () => void;
}

/** A request's turn on the key, from its slot in flight to its answer: what it tells the key goes through here. */
export interface KeyLease {
	/** Reads the reply's headers, for the pacing of every request on the key. */
	observe(headers: Record<string, string>): void;
	/** Counts the reply's `total_tokens`, for what the pacing reckons a request costs. */
	spent(tokens: unknown): void;
	/** Learns what the attempt's failure told the key (its row's `keySign`, read once by the run). */
	learn(sign: KeySign, cause: ServiceError): void;
	/** Gives the turn back: `ok`, whether the attempt succeeded. */
	release(ok: boolean): void;
}

/**
 * The key's one room: what every run on one key shares in this n8n process (executions at once, every node's
 * run, the Chat Model's calls), since the service limits the key, not a run. The pauses a service asked for
 * (the key's, and each model's when its answer named the model), the pacing from the x-ratelimit headers, the
 * cap on requests in flight the service named, the window a 429 named, and where Auto left off. A request
 * goes in through one door (`acquire`) and tells what it learned through its lease; what a failure tells the
 * key comes from the failure's row (`KeySign`).
 */
export class KeyState {
	/**
	 * The requests in flight Auto last allowed on the key: a run at Auto starts there, so that a key that answered
	 * fine starts with more, and one that said it was overloaded with fewer, than a key new to this process.
	 */
	#autoLimit = AUTO.start;
	readonly #pacer = new Pacer();
	/** The cap on requests in flight the service named: it comes down through the slot of the request told. */
	readonly #inFlight: Limiter = keyLimiter();
	readonly #window = new RequestWindow();
	readonly #keyPause = new PauseGate();
	readonly #modelPauses = new Map<string, PauseGate>();

	/** The most requests in flight the key now allows (Infinity until the service names a cap). */
	get inFlightLimit(): number {
		return this.#inFlight.limit;
	}

	/**
	 * A run's Auto limiter: it starts where Auto last left off on the key, and leaves its limit here after each
	 * attempt. `cap`: a further bound (the Token Budget's room).
	 */
	autoLimiter(cap?: () => number): Limiter {
		const limiter = autoLimiter({ ...AUTO, start: this.#autoLimit }, cap);
		return {
			acquire: async (signal) => {
				const slot = await limiter.acquire(signal);
				return {
					release: (outcome, named) => {
						slot.release(outcome, named);
						this.#autoLimit = limiter.limit;
					},
				};
			},
			close: () => limiter.close(),
			get limit() {
				return limiter.limit;
			},
			get inFlight() {
				return limiter.inFlight;
			},
		};
	}

	/**
	 * A request's turn on the key: the pauses the service asked for (the key's and the model's: one that would
	 * hold the request longer than `hold` allows fails it at once), a slot in flight, the pacing (held while the
	 * x-ratelimit headers or a window named by a 429 say the key's limit is used up, unless that is longer than
	 * `hold` allows: the 429 decides then), then `ready`; the request counts as sent when the lease is handed.
	 */
	async acquire({
		signal,
		model,
		hold = UNBOUNDED,
		first = false,
		ready,
	}: KeyAsk): Promise<KeyLease> {
		// A pause that began while the request waited for the run's slot holds it too.
		await this.#paused(model, hold, first, signal);
		const slot = await this.#inFlight.acquire(signal);
		let going = false;
		try {
			await this.#paced(hold, signal);
			ready?.();
			going = true;
		} finally {
			if (!going) slot.release('failed');
		}
		const place = this.#pacer.take();
		this.#window.sent();
		/** A cap on requests in flight the service named: the key's limit comes down to it. */
		let cap: number | undefined;
		return {
			observe: (headers) => this.#pacer.observe(headers, place),
			spent: (tokens) => this.#pacer.spent(tokens),
			learn: (sign, cause) => {
				if ('cap' in sign) cap = sign.cap;
				else this.learn(sign, cause);
			},
			release: (ok) => {
				this.#pacer.settle();
				slot.release(ok ? 'ok' : 'failed', cap);
			},
		};
	}

	/** Learns what an answer told of the key: a window to keep to (every request pauses until it has room), a pause. */
	learn(sign: Exclude<KeySign, { cap: number }>, cause: ServiceError): void {
		if ('window' in sign) this.#keyPause.pause(this.#window.refused(sign.window), cause);
		else this.#pause(sign.model).pause(sign.pauseMs, cause);
	}

	/** The pause that holds a request for `model` now (the key's, or the model's, whichever ends later). */
	held(model?: string): Held {
		const gates = this.#gates(model);
		const longest = gates.reduce((a, b) => (b.leftMs() > a.leftMs() ? b : a));
		return { leftMs: longest.leftMs(), cause: longest.cause, causeAt: longest.causeAt };
	}

	/** Waits until no pause holds a request for `model`. */
	async #waitPauses(model: string | undefined, signal: AbortSignal): Promise<void> {
		while (this.held(model).leftMs > 0) {
			for (const gate of this.#gates(model)) await gate.wait(signal);
		}
	}

	/**
	 * Waits out the pauses that hold a request for `model`, or fails it when they outlast what it may wait: a
	 * request never sent yet (`first`) as not sent, since another request's 429 paused the key.
	 */
	async #paused(
		model: string | undefined,
		hold: HoldBudget,
		first: boolean,
		signal: AbortSignal,
	): Promise<void> {
		const { leftMs, cause, causeAt = 0 } = this.held(model);
		if (leftMs <= 0) return;
		if (leftMs > hold.leftMs && cause !== undefined) {
			throw first ? new PausedNotSent(cause, causeAt, leftMs, hold.limitMs) : hold.outlasted(cause);
		}
		const started = Date.now();
		await this.#waitPauses(model, signal);
		hold.held(Date.now() - started);
	}

	/** Holds until the pacing lets a request go (a hold longer than the request may wait is not waited: the 429 decides). */
	async #paced(hold: HoldBudget, signal: AbortSignal): Promise<void> {
		for (;;) {
			const ms = Math.max(this.#pacer.holdMs(), this.#window.holdMs());
			if (ms <= 0 || ms > hold.leftMs) return;
			await sleep(ms, signal);
			hold.held(ms);
		}
	}

	#gates(model?: string): PauseGate[] {
		const own = model === undefined ? undefined : this.#modelPauses.get(model);
		return own === undefined ? [this.#keyPause] : [this.#keyPause, own];
	}

	#pause(model?: string): PauseGate {
		if (model === undefined) return this.#keyPause;
		let gate = this.#modelPauses.get(model);
		if (gate === undefined) {
			gate = new PauseGate();
			this.#modelPauses.set(model, gate);
		}
		return gate;
	}
}

const KEYS = new Map<string, KeyState>();

/** The shared state of a key at a Base URL (known by a hash of the key, never the key itself). */
export function keyState({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }): KeyState {
	const name = `${baseUrl}\n${createHash('sha256').update(apiKey).digest('hex')}`;
	let state = KEYS.get(name);
	if (state === undefined) {
		state = new KeyState();
		KEYS.set(name, state);
	}
	return state;
}
