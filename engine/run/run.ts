import { sleep } from 'n8n-workflow';

import { KeyState, keyState } from '../key/key-state';
import { TokenBudget } from './token-budget';
import { Admission } from '../concurrency/admission';
import type { AttemptOutcome, Limiter, Slot } from '../concurrency/limiter';
import { AUTO, autoLimiter, fixedLimiter, LimiterClosed } from '../concurrency/limiter';
import type { Connection } from '../connection';
import { KeyFailedEarlier, NetworkError, PausedNotSent, ServiceError } from '../failures/errors';
import { classify } from '../failures/table';

/** What a run is built from: the node's run settings, read once. */
export interface RunSettings {
	/** Options > Concurrency: 0 is Auto. */
	concurrency: number;
	/** Options > Token Budget: 0 is none. */
	tokenBudget: number;
	/** The execution's cancel signal. */
	cancel?: AbortSignal;
	/** Told what the user should know of the run but that fails nothing (a budget that cannot count). */
	warn?: (message: string) => void;
	/** The key the run sends with: its rate limits are shared with every other run on it in this process. */
	key?: Pick<Connection, 'baseUrl' | 'apiKey'>;
}

/** How one attempt is sent: its cancel signal, the tokens of its result, and a last check before it goes. */
export interface SendOptions<T> {
	signal: AbortSignal;
	tokensOf: (result: T) => unknown;
	/** Throws when the attempt must not be sent after all (checked once it has its slot, like the Token Budget). */
	check?: () => void;
	/** The model asked: a pause the service set for another model does not hold it. */
	model?: string;
}

/** How long a request may still be held for the key's rate limits (its Max Wait on Rate Limit), and what it was. */
export interface HoldBudget {
	/** The most the request may still be held, in ms. */
	readonly leftMs: number;
	/** The most it may be held in all (Max Wait on Rate Limit), in ms. */
	readonly limitMs: number;
	/** Counts time the request was held. */
	held(ms: number): void;
	/** The failure of a request that a pause would hold longer than it may wait (`cause`, the answer that asked). */
	outlasted(cause: ServiceError): Error;
}

/** A request that may wait as long as the rate limits ask (no Max Wait). */
const UNBOUNDED: HoldBudget = {
	leftMs: Infinity,
	limitMs: Infinity,
	held: () => undefined,
	outlasted: (cause) => cause,
};

/**
 * What an attempt is handed: where its reply's headers go, for the pacing of every request on the key, and
 * whether the status says the request is being answered (a stream under way).
 */
export type Observe = (headers: Record<string, string>, answering: boolean) => void;

/** A model's first answer in the run, which the other requests for it wait for (`Run.firstAsk`). */
interface FirstAnswer {
	heard: Promise<void>;
	hear: () => void;
}

/** Waits for `heard`, or rejects with the signal's reason once it aborts. */
async function heardOrEnded(heard: Promise<void>, signal: AbortSignal): Promise<void> {
	signal.throwIfAborted();
	let onAbort = () => undefined as void;
	const ended = new Promise<never>((_, reject) => {
		onAbort = () => reject(signal.reason);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([heard, ended]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** Jobs under way (sending, or waiting to retry) per request the limiter allows in flight; the rest wait unstarted. */
const JOBS_PER_SLOT = 2;

/**
 * One run of a node: what all its requests share. The pause a Retry-After puts on all of them, the slots for
 * requests in flight (fixed, or Auto; bounded by what the Token Budget left can pay for), the jobs let start,
 * the budget, and the stop: once a failure ends the run (On Error: Stop Workflow) no request starts and
 * those in flight are cancelled, so that no more replies are paid for and thrown away. Every attempt of
 * every request goes through `send`.
 */
export class Run {
	/** What the runs on the key share (a run without a key has its own). */
	readonly key: KeyState;
	readonly limiter: Limiter;
	readonly #auto: boolean;
	readonly budget?: TokenBudget;
	readonly #admission: Admission<unknown>;
	readonly #stop = new AbortController();
	readonly #cancel?: AbortSignal;
	readonly #warn: (message: string) => void;
	readonly #told = new Set<string>();
	/** Requests sent to the service so far (a request's retries are not counted again). */
	sent = 0;
	/** Requests in flight when the run stopped, and so cancelled. */
	cancelled = 0;
	/** Per model, a failure that will not change within the run (its row's `lasting`: `model`). */
	readonly #lasting = new Map<string, unknown>();
	/** A failure that holds for every request of the key within the run (its row's `lasting`: `key`). */
	#keyFailure?: unknown;
	/** Per model asked with a fallback left, its first answer (`firstAsk`). */
	readonly #firstAnswers = new Map<string, FirstAnswer>();

	constructor({ concurrency, tokenBudget, cancel, warn = () => undefined, key }: RunSettings) {
		const budget = tokenBudget > 0 ? new TokenBudget(tokenBudget, warn) : undefined;
		const cap = budget ? () => budget.room() : undefined;
		this.budget = budget;
		this.key = key === undefined ? new KeyState() : keyState(key);
		this.#auto = concurrency === 0;
		this.limiter = this.#auto
			? autoLimiter({ ...AUTO, start: this.key.autoLimit }, cap)
			: fixedLimiter(concurrency, cap);
		this.#admission = new Admission(() => this.limiter.limit * JOBS_PER_SLOT);
		this.#cancel = cancel;
		this.#warn = warn;
	}

	/** Tells the user once per run what `topic` is about (how the node answers a rate limit). */
	tell(topic: string, message: string): void {
		if (this.#told.has(topic)) return;
		this.#told.add(topic);
		this.#warn(message);
	}

	/** What ends a request: the execution's cancel, the run's stop, and the caller's own signal when given. */
	signal(own?: AbortSignal): AbortSignal {
		const signals = [this.#stop.signal, this.#cancel, own].filter(
			(signal): signal is AbortSignal => signal !== undefined,
		);
		return signals.length === 1 ? signals[0] : AbortSignal.any(signals);
	}

	/** Whether the run was stopped or the execution cancelled: nothing more is sent. */
	get ended(): boolean {
		return this.#stop.signal.aborted || this.#cancel?.aborted === true;
	}

	/** Whether a failure stopped the run. */
	get stopped(): boolean {
		return this.#stop.signal.aborted;
	}

	/** Stops the run's requests: none starts any more; those in flight, or waiting to retry, end. */
	stop(): void {
		if (this.#stop.signal.aborted) return;
		this.cancelled = this.limiter.inFlight;
		this.limiter.close();
		this.#stop.abort(new LimiterClosed());
	}

	/** Whether `error` ended a request only because the run stopped, not because of the request itself. */
	stoppedBy(error: unknown): boolean {
		return (
			this.stopped &&
			(error instanceof LimiterClosed ||
				(error instanceof NetworkError && error.code === 'ERR_CANCELED'))
		);
	}

	/** The lasting failure a model had earlier in the run, if any. */
	lastingFailure(model: string): unknown {
		return this.#lasting.get(model);
	}

	/**
	 * Before a request asks `model` while a fallback is left: the first such request goes at once, and gets
	 * the function to call once it is done; the others wait until its answer is in (a reply under way, or its
	 * failure noted), so that a failure that lasts for the model (no such model, not for this key) is met by
	 * one request, not by every request in flight.
	 */
	async firstAsk(model: string, signal: AbortSignal): Promise<(() => void) | undefined> {
		const first = this.#firstAnswers.get(model);
		if (first !== undefined) {
			await heardOrEnded(first.heard, signal);
			return undefined;
		}
		let hear = () => undefined as void;
		const heard = new Promise<void>((resolve) => (hear = resolve));
		this.#firstAnswers.set(model, { heard, hear });
		return hear;
	}

	/** The model's first answer is in: the requests waiting for it go on. */
	#heard(model: string | undefined): void {
		if (model !== undefined) this.#firstAnswers.get(model)?.hear();
	}

	/** A request must not be sent: an earlier one got an answer that holds for the whole key. */
	#checkKey(): void {
		if (this.#keyFailure !== undefined) throw new KeyFailedEarlier(this.#keyFailure);
	}

	/** Starts `task` once there is room near the limit, so that 10,000 items do not wait as 10,000 started calls. */
	async admit<T>(task: () => Promise<T>): Promise<T> {
		return (await this.#admission.add(task)) as T;
	}

	/**
	 * One attempt of a request: a slot in flight (the run's, then the key's), the pauses the service asked for
	 * (the key's and the request's model's: one that would hold the request longer than `hold` allows fails it
	 * at once), the pacing (held while the x-ratelimit headers or a window named by a 429 say the key's limit
	 * is used up, unless that is longer than `hold` allows: the 429 decides then), the Token Budget's check,
	 * then `attempt`, handed where its reply's headers go; the reply's tokens (`tokensOf`) count against the
	 * budget. A failure's row says what it tells the key (`keySign`: learned here) and whether Auto backs off.
	 * `first`: the request's first attempt, counted as sent.
	 */
	async send<T>(
		attempt: (observe: Observe) => Promise<T>,
		{
			signal,
			first,
			tokensOf,
			check,
			model,
			hold = UNBOUNDED,
		}: SendOptions<T> & { first: boolean; hold?: HoldBudget },
	): Promise<T> {
		const slot = await this.limiter.acquire(signal);
		let keySlot: Slot | undefined;
		let outcome: AttemptOutcome = 'failed';
		/** A cap on requests in flight the service named: the key's limit comes down to it. */
		let cap: number | undefined;
		/**
		 * Reads the failure's row once: whether Auto backs off, what the key learns (`keySign`), and whether it
		 * holds for the model or the key for the rest of the run (`lasting`).
		 */
		const failed = (error: unknown) => {
			const row = classify(error);
			if (row.overload) outcome = 'overloaded';
			if (row.lasting === 'key') this.#keyFailure ??= error;
			if (row.lasting === 'model' && model !== undefined && !this.#lasting.has(model))
				this.#lasting.set(model, error);
			const sign = error instanceof ServiceError ? row.keySign?.(error, model) : undefined;
			if (sign !== undefined && 'cap' in sign) cap = sign.cap;
			else if (sign !== undefined) this.key.learn(sign, error as ServiceError);
			return error;
		};
		try {
			// A pause that began while this request waited for its slot holds it too.
			await this.#paused(model, hold, first, signal);
			keySlot = await this.key.inFlight.acquire(signal);
			await this.#paced(hold, signal);
			this.#checkKey();
			this.budget?.check();
			check?.();
			if (first) this.sent++;
			const { pacer } = this.key;
			const place = pacer.take();
			this.key.window.sent();
			const result = await attempt((headers, answering) => {
				pacer.observe(headers, place);
				if (answering) this.#heard(model);
			}).finally(() => pacer.settle());
			const tokens = tokensOf(result);
			pacer.spent(tokens);
			this.budget?.spend(tokens);
			outcome = 'ok';
			return result;
		} catch (error) {
			throw failed(error);
		} finally {
			keySlot?.release(outcome === 'ok' ? 'ok' : 'failed', cap);
			slot.release(outcome);
			this.#heard(model);
			if (this.#auto) this.key.autoLimit = this.limiter.limit;
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
		const { leftMs, cause, causeAt = 0 } = this.key.held(model);
		if (leftMs <= 0) return;
		if (leftMs > hold.leftMs && cause !== undefined) {
			throw first ? new PausedNotSent(cause, causeAt, leftMs, hold.limitMs) : hold.outlasted(cause);
		}
		const started = Date.now();
		await this.key.waitPauses(model, signal);
		hold.held(Date.now() - started);
	}

	/** Holds until the pacing lets a request go (a hold longer than the request may wait is not waited: the 429 decides). */
	async #paced(hold: HoldBudget, signal: AbortSignal): Promise<void> {
		for (;;) {
			const ms = Math.max(this.key.pacer.holdMs(), this.key.window.holdMs());
			if (ms <= 0 || ms > hold.leftMs) return;
			await sleep(ms, signal);
			hold.held(ms);
		}
	}

	/**
	 * What the stop after a failure did, for its error: requests sent (paid for when answered) and cancelled,
	 * and the replies received that the stop throws away.
	 */
	stopNote(answered: number): string {
		const { sent, cancelled } = this;
		const requests = `${sent} ${sent === 1 ? 'request was' : 'requests were'} sent`;
		const ended = cancelled === 0 ? '' : `, ${cancelled} of them still in flight and cancelled`;
		const thrown =
			answered === 0
				? ''
				: ` The replies received for ${answered} ${answered === 1 ? 'item are' : 'items are'} not passed on: On Error: Continue keeps them.`;
		return `The node stopped at this failure (On Error: Stop Workflow): ${requests}${ended}, and no other request started.${thrown}`;
	}
}
