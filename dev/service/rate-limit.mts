/**
 * Per-key limits as a gateway enforces them, shared by every client of a key (one service process serves
 * them all): requests started in a sliding window (e.g. 20 per second) and, when configured, requests in
 * flight at once (e.g. 8). Beyond either the request is refused with 429 and a Retry-After until the next
 * slot frees; refused requests do not count. Every answer of a limited key carries x-ratelimit-* headers.
 * What each key went through is kept for GET /__control/rate-limits until clear().
 */
import type { KeyRecord, RateLimit } from './config.mts';
import {
	type LimitReached,
	type LimitState,
	rateLimited,
	rateLimitHeaders,
} from './rate-limit-wire.mts';

/** How many recent service times are averaged to guess when a request in flight ends. */
const durationsKept = 16;
/** The least wait for the in-flight limit: its end is a guess, and a client told 0 would spin. */
const minInFlightWaitMs = 10;

export interface InFlightPoint {
	/** Unix milliseconds, fractional. */
	at: number;
	inFlight: number;
}

/** What a limited key went through since start or the last clear. */
export interface RateLimitReport {
	limit: RateLimit;
	admitted: number;
	/** The 429s sent, and which limit each one was for. */
	rejected: number;
	rejectedBy: Record<LimitReached, number>;
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

const unlimited: Admission = { headers: {}, release: () => {} };

class KeyLimit {
	/** Admission times still inside the window, oldest first. */
	#started: number[] = [];
	/** Start times of the requests in flight, one entry per request. */
	readonly #inFlight = new Set<{ startedAt: number }>();
	#durations: number[] = [];
	#report: RateLimitReport;

	readonly key: KeyRecord;
	readonly limit: RateLimit;

	constructor(key: KeyRecord, limit: RateLimit, now: number) {
		this.key = key;
		this.limit = limit;
		this.#report = this.#freshReport(now);
	}

	admit(now: number, clock: () => number): Admission {
		const windowMs = this.limit.windowSeconds * 1000;
		while (this.#started.length > 0 && this.#started[0] <= now - windowMs) this.#started.shift();
		const windowWait =
			this.#started.length >= this.limit.requests ? this.#started[0] + windowMs - now : 0;
		const inFlightFull =
			this.limit.inFlight !== undefined && this.#inFlight.size >= this.limit.inFlight;
		const inFlightWait = inFlightFull ? this.#nextEndGuess(now) : 0;
		if (windowWait > 0 || inFlightWait > 0) {
			const reached: LimitReached = windowWait >= inFlightWait ? 'window' : 'inFlight';
			this.#report.rejected++;
			this.#report.rejectedBy[reached]++;
			throw rateLimited(
				this.key.key,
				this.#state(now),
				reached,
				Math.max(windowWait, inFlightWait),
			);
		}
		this.#started.push(now);
		const request = { startedAt: now };
		this.#inFlight.add(request);
		this.#report.admitted++;
		this.#changed(now);
		return {
			headers: rateLimitHeaders(this.#state(now)),
			release: () => {
				if (!this.#inFlight.delete(request)) return;
				const end = clock();
				this.#durations = [...this.#durations.slice(1 - durationsKept), end - request.startedAt];
				this.#changed(end);
			},
		};
	}

	report(): RateLimitReport {
		return this.#report;
	}

	/** Forgets the window and the counts; requests still in flight stay counted. */
	clear(now: number): void {
		this.#started = [];
		this.#report = this.#freshReport(now);
	}

	#freshReport(now: number): RateLimitReport {
		const inFlight = this.#inFlight.size;
		return {
			limit: this.limit,
			admitted: 0,
			rejected: 0,
			rejectedBy: { window: 0, inFlight: 0 },
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

	#state(now: number): LimitState {
		const oldest = this.#started[0] ?? now;
		return {
			limit: this.limit,
			used: this.#started.length,
			inFlight: this.#inFlight.size,
			nextWindowSlotMs: oldest + this.limit.windowSeconds * 1000 - now,
		};
	}
}

export class RateLimiter {
	/** By key; only keys with a rate limit. */
	readonly #limits = new Map<string, KeyLimit>();

	readonly #clock: () => number;

	/** `clock` gives Unix milliseconds, fractional. */
	constructor(keys: Iterable<KeyRecord>, clock: () => number) {
		this.#clock = clock;
		const now = clock();
		for (const key of keys) {
			if (key.rateLimit !== undefined) {
				this.#limits.set(key.key, new KeyLimit(key, key.rateLimit, now));
			}
		}
	}

	/** Counts a request of `key` starting now, or throws the 429. */
	admit(key: KeyRecord): Admission {
		return this.#limits.get(key.key)?.admit(this.#clock(), this.#clock) ?? unlimited;
	}

	/** By key name. */
	reports(): Record<string, RateLimitReport> {
		return Object.fromEntries(
			[...this.#limits.values()].map((limit) => [limit.key.name, limit.report()]),
		);
	}

	clear(): void {
		const now = this.#clock();
		for (const limit of this.#limits.values()) limit.clear(now);
	}
}
