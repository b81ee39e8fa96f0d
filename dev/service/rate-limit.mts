/**
 * Per-key limits as a gateway enforces them, shared by every client of a key (one service process serves
 * them all): requests started in a window (e.g. 20 per second) and, when configured, requests in flight at
 * once (e.g. 8). Beyond either the request is refused with 429; refused requests do not count (but with
 * new-api's style). How the window counts and what the answers say is the key's style (rate-limit-styles.mts).
 * The traffic of every key, limited or not (admitted, refused, in flight over time), is kept for
 * GET /__control/traffic until clear(), so that a benchmark can show how clients load the service.
 */
import type { KeyRecord, RateLimit } from './config.mts';
import { type Style, STYLES } from './rate-limit-styles.mts';
import type { LimitReached, LimitState } from './rate-limit-wire.mts';
import { type RequestWindow, requestWindow } from './rate-limit-windows.mts';

/** How many recent service times are averaged to guess when a request in flight ends. */
const durationsKept = 16;
/** The least wait for the in-flight limit: its end is a guess, and a client told 0 would spin. */
const minInFlightWaitMs = 10;

export interface InFlightPoint {
	/** Unix milliseconds, fractional. */
	at: number;
	inFlight: number;
}

/** What a key went through since start or the last clear. */
export interface TrafficReport {
	limit: RateLimit | null;
	admitted: number;
	/** The 429s sent, and which limit each one was for. */
	rejected: number;
	rejectedBy: Record<LimitReached, number>;
	/** When the last 429 was sent (Unix ms, fractional), or null. */
	lastRejectedAt: number | null;
	inFlight: number;
	maxInFlight: number;
	/** The count of requests in flight at start or clear, then one point per change. */
	timeline: InFlightPoint[];
}

export interface Admission {
	/** The x-ratelimit-* headers for the answer (none for a key without limit). */
	headers: Record<string, string>;
	/** Once the answer is over (sent or cut off): the request leaves the in-flight count. */
	release(): void;
}

class KeyTraffic {
	readonly key: KeyRecord;
	readonly #style: Style;
	/** The requests counted against the limit (limited keys only). */
	readonly #window?: RequestWindow;
	/** Start times of the requests in flight, one entry per request. */
	readonly #inFlight = new Set<{ startedAt: number }>();
	#durations: number[] = [];
	#report: TrafficReport;

	constructor(key: KeyRecord, now: number) {
		this.key = key;
		this.#style = STYLES[key.rateLimit?.style ?? 'local'];
		const limit = key.rateLimit;
		if (limit !== undefined) {
			this.#window = requestWindow(this.#style.window, limit.requests, limit.windowSeconds * 1000);
		}
		this.#report = this.#freshReport(now);
	}

	admit(now: number, clock: () => number): Admission {
		const { rateLimit } = this.key;
		if (rateLimit !== undefined) this.#refuseBeyond(rateLimit, now);
		const request = { startedAt: now };
		this.#inFlight.add(request);
		this.#report.admitted++;
		this.#changed(now);
		return {
			headers: rateLimit === undefined ? {} : this.#style.headers(this.#state(rateLimit, now)),
			release: () => {
				if (!this.#inFlight.delete(request)) return;
				const end = clock();
				this.#durations = [...this.#durations.slice(1 - durationsKept), end - request.startedAt];
				this.#changed(end);
			},
		};
	}

	report(): TrafficReport {
		return this.#report;
	}

	/** Forgets the window and the counts; requests still in flight stay counted. */
	clear(now: number): void {
		this.#window?.clear();
		this.#report = this.#freshReport(now);
	}

	/** Throws the 429 when the window or the in-flight limit is full; else counts the request in the window. */
	#refuseBeyond(limit: RateLimit, now: number): void {
		const window = this.#window!;
		const windowWait = window.waitMs(now);
		const inFlightFull = limit.inFlight !== undefined && this.#inFlight.size >= limit.inFlight;
		const inFlightWait = inFlightFull ? this.#nextEndGuess(now) : 0;
		if (windowWait > 0 || inFlightWait > 0) {
			const reached: LimitReached = windowWait >= inFlightWait ? 'window' : 'inFlight';
			this.#report.rejected++;
			this.#report.rejectedBy[reached]++;
			this.#report.lastRejectedAt = now;
			if (this.#style.countsRefused) window.take(now);
			const state = this.#state(limit, now);
			throw this.#style.refusal(this.key.key, state, reached, Math.max(windowWait, inFlightWait));
		}
		window.take(now);
	}

	#freshReport(now: number): TrafficReport {
		const inFlight = this.#inFlight.size;
		return {
			limit: this.key.rateLimit ?? null,
			admitted: 0,
			rejected: 0,
			rejectedBy: { window: 0, inFlight: 0 },
			lastRejectedAt: null,
			inFlight,
			maxInFlight: inFlight,
			timeline: [{ at: now, inFlight }],
		};
	}

	#changed(at: number): void {
		const inFlight = this.#inFlight.size;
		this.#report.inFlight = inFlight;
		this.#report.maxInFlight = Math.max(this.#report.maxInFlight, inFlight);
		this.#report.timeline.push({ at, inFlight });
	}

	/** Until the request in flight longest is likely to end: its start plus the recent mean service time. */
	#nextEndGuess(now: number): number {
		const oldest = Math.min(...[...this.#inFlight].map((request) => request.startedAt));
		const mean =
			this.#durations.reduce((sum, duration) => sum + duration, 0) /
			Math.max(1, this.#durations.length);
		return Math.max(minInFlightWaitMs, oldest + mean - now);
	}

	#state(limit: RateLimit, now: number): LimitState {
		const window = this.#window!;
		return {
			limit,
			used: window.used(now),
			left: window.left(now),
			inFlight: this.#inFlight.size,
			resetMs: window.resetMs(now),
			now,
		};
	}
}

export class RateLimiter {
	readonly #traffic = new Map<string, KeyTraffic>();
	readonly #clock: () => number;

	/** `clock` gives Unix milliseconds, fractional. */
	constructor(keys: Iterable<KeyRecord>, clock: () => number) {
		this.#clock = clock;
		const now = clock();
		for (const key of keys) this.#traffic.set(key.key, new KeyTraffic(key, now));
	}

	/** Counts a request of `key` starting now, or throws the 429. */
	admit(key: KeyRecord): Admission {
		const traffic = this.#traffic.get(key.key);
		if (traffic === undefined) throw new Error(`Unknown key ${key.name}`);
		return traffic.admit(this.#clock(), this.#clock);
	}

	/** By key name. */
	reports(): Record<string, TrafficReport> {
		return Object.fromEntries(
			[...this.#traffic.values()].map((traffic) => [traffic.key.name, traffic.report()]),
		);
	}

	clear(): void {
		const now = this.#clock();
		for (const traffic of this.#traffic.values()) traffic.clear(now);
	}
}
