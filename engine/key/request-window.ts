/** A limit of `requests` per `ms` that a gateway named in its 429 (new-api: "N分钟内最多请求M次"). */
export interface WindowLimit {
	requests: number;
	ms: number;
}

/** The gateway's clock and ours differ by the time a request travels: sends are kept this far apart from the window's edge. */
const EDGE_MS = 250;
const EDGE_SHARE = 0.02;
/** Before a window is known, the latest sends kept, to reckon from once one is named. */
const KEPT = 10_000;

/**
 * The requests of a key sent from this n8n process, and the window limit a gateway named: once a 429 named
 * one, no request goes while the window holds as many of ours (refused ones too: new-api counts them), so
 * that quick retries do not use the window up. Shared by every run on the key (`key-state.ts`).
 */
export class RequestWindow {
	#sends: number[] = [];
	#limit?: WindowLimit;

	get limit(): WindowLimit | undefined {
		return this.#limit;
	}

	/** Counts a request sent now. */
	sent(now = Date.now()): void {
		this.#sends.push(now);
		const limit = this.#limit;
		if (limit === undefined) {
			if (this.#sends.length > KEPT) this.#sends.shift();
			return;
		}
		while (this.#sends.length > limit.requests && this.#sends[0] <= now - limit.ms)
			this.#sends.shift();
	}

	/** After a 429 that named the window: remembers it; returns how long to wait, on the window's scale. */
	refused(limit: WindowLimit, now = Date.now()): number {
		this.#limit = limit;
		const hold = this.holdMs(now);
		// Fewer of ours than it counts: others (or earlier requests) fill it, and only a whole window frees it surely.
		return hold > 0 ? hold : limit.ms + this.#edge(limit);
	}

	/** How long a new request must be held now so that the window it enters holds fewer than its limit of ours. */
	holdMs(now = Date.now()): number {
		const limit = this.#limit;
		if (limit === undefined) return 0;
		const inWindow = this.#sends.filter((at) => at > now - limit.ms);
		if (inWindow.length < limit.requests) return 0;
		return Math.max(
			0,
			inWindow[inWindow.length - limit.requests] + limit.ms + this.#edge(limit) - now,
		);
	}

	#edge(limit: WindowLimit): number {
		return Math.max(EDGE_MS, limit.ms * EDGE_SHARE);
	}
}
