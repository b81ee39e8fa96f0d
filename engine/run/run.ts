import type { HoldBudget } from '../key/hold-budget';
import type { KeyLease } from '../key/key-state';
import { KeyState, keyState } from '../key/key-state';
import { TokenBudget } from './token-budget';
import { Admission } from '../concurrency/admission';
import type { AttemptOutcome, Limiter } from '../concurrency/limiter';
import { fixedLimiter, LimiterClosed } from '../concurrency/limiter';
import type { Connection } from '../connection';
import { KeyFailedEarlier, NetworkError, ServiceError } from '../failures/errors';
import type { FailureKind, KeySign } from '../failures/kind';
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
	/**
	 * Sent without the key (a download from another origin): a slot of the run, but no turn on the key (its
	 * pauses, slots and pacing are the key's host's), and nothing learned for the key from its failures.
	 */
	keyless?: true;
}

/** What the run read of a failed attempt, once: its row, and what it told the key (`keySign`). */
export interface Reading {
	row: FailureKind;
	sign?: KeySign;
}

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
		this.limiter = concurrency === 0 ? this.key.autoLimiter(cap) : fixedLimiter(concurrency, cap);
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
	 * One attempt of a request: a slot in flight in the run, then its turn on the key (`KeyState.acquire`: the
	 * pauses, the key's slot, the pacing, each bounded by `hold`; none for a request `keyless`), the Token Budget's check, then `attempt`,
	 * handed where its reply's headers go; the reply's tokens (`tokensOf`) count against the budget. A
	 * failure's row is read here once: what it tells the key (`keySign`, learned through the lease), whether
	 * Auto backs off; `read` is given that reading. `first`: the request's first attempt, counted as sent.
	 */
	async send<T>(
		attempt: (observe: Observe) => Promise<T>,
		{
			signal,
			first,
			tokensOf,
			check,
			model,
			hold,
			read,
			keyless,
		}: SendOptions<T> & { first: boolean; hold?: HoldBudget; read?: (reading: Reading) => void },
	): Promise<T> {
		const slot = await this.limiter.acquire(signal);
		let lease: KeyLease | undefined;
		let outcome: AttemptOutcome = 'failed';
		/**
		 * Reads the failure's row once: whether Auto backs off, what the key learns (`keySign`), whether it holds
		 * for the model or the key for the rest of the run (`lasting`); the reading goes to `read`.
		 */
		const failed = (error: unknown) => {
			const row = classify(error);
			if (row.overload) outcome = 'overloaded';
			// Another host's answer tells nothing of the key, nor of the model.
			const ofKey = keyless !== true;
			if (ofKey && row.lasting === 'key') this.#keyFailure ??= error;
			if (ofKey && row.lasting === 'model' && model !== undefined && !this.#lasting.has(model))
				this.#lasting.set(model, error);
			const sign = ofKey && error instanceof ServiceError ? row.keySign?.(error, model) : undefined;
			if (sign !== undefined) lease?.learn(sign, error as ServiceError);
			read?.({ row, sign });
			return error;
		};
		try {
			const ready = () => {
				if (keyless !== true) this.#checkKey();
				this.budget?.check();
				check?.();
				if (first) this.sent++;
			};
			if (keyless === true) ready();
			else lease = await this.key.acquire({ signal, model, hold, first, ready });
			const observe = lease?.observe;
			const result = await attempt((headers, answering) => {
				observe?.(headers);
				if (answering) this.#heard(model);
			});
			const tokens = tokensOf(result);
			lease?.spent(tokens);
			this.budget?.spend(tokens);
			outcome = 'ok';
			return result;
		} catch (error) {
			throw failed(error);
		} finally {
			lease?.release(outcome === 'ok');
			slot.release(outcome);
			this.#heard(model);
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
