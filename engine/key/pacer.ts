import type { LimitReport } from '../reply/rate-limit-headers';
import { rateLimitHeaders } from '../reply/rate-limit-headers';

/** The least share of a key's limit one process takes, however many others are seen using it. */
const MIN_SHARE = 0.05;

/** What a reply said of one limit, and how many of the requests sent here it may not have counted. */
interface Seen extends LimitReport {
	/** When the bucket is full again (Unix ms), when said. */
	fullAt?: number;
	/**
	 * The count of requests sent here that the reply's figure surely includes: those sent before it, less every
	 * other request still unanswered when it came (the service may have counted them after the one it answers:
	 * requests do not reach it in the order they were sent, e.g. one on a kept connection passes others waiting
	 * for theirs).
	 */
	sentBefore: number;
	/** The place of the request it answers, for the share. */
	place: number;
}

/** What the replies said of one limit: the tightest figure, which is kept until its reset, and the latest. */
interface Known {
	tightest: Seen;
	latest: Seen;
}

/**
 * Pacing from the `x-ratelimit-*` headers a key's replies carry (OpenAI, LiteLLM): what is left of a limit,
 * less what may have gone since the service counted it (every request sent since, and every other one still
 * unanswered then), is what may still go; the tightest figure a reply gave wins until its reset. When that is
 * used up, new requests are held until the reset (the bucket is full again then), so that they meet no 429.
 * Requests count 1 each, tokens the average reply's `total_tokens`. When the service counts more between two
 * replies than went from here (other queue-mode workers on the key), only this process's share of what is left
 * is taken. Shared by every run on the key in this n8n process (`key-state.ts`).
 */
export class Pacer {
	#sent = 0;
	#settled = 0;
	#requests?: Known;
	#tokens?: Known;
	#tokensSpent = 0;
	#replies = 0;
	/**
	 * This process's share of what the key uses (other workers may use it too): what went from here between two
	 * replies against what the service counted between them; 1 while nobody else is seen.
	 */
	#share = 1;

	/** Counts a request that is sent now; returns its place, which its reply's headers are observed with. */
	take(): number {
		return ++this.#sent;
	}

	/** Counts a request taken with `take` that is over (answered or failed), whether or not it was observed. */
	settle(): void {
		this.#settled++;
	}

	/** Reads a reply's headers; `place` is its request's, from `take`, not yet settled. */
	observe(headers: Record<string, string>, place: number, now = Date.now()): void {
		const { requests, tokens } = rateLimitHeaders(headers);
		const others = Math.max(0, this.#sent - this.#settled - 1);
		const sentBefore = this.#sent - others;
		const last = this.#requests?.latest;
		if (requests !== undefined && last !== undefined && place > last.place) {
			const counted = last.remaining - requests.remaining;
			// A bucket that refilled in between counts less than was used: such a reply says nothing of others.
			if (counted > 0) {
				const ours = Math.min(1, (place - last.place) / counted);
				this.#share = Math.max(MIN_SHARE, (this.#share + ours) / 2);
			}
		}
		const known = (report: LimitReport | undefined, kept: Known | undefined, cost: number) => {
			if (report === undefined) return kept;
			const fullAt = report.resetMs === undefined ? undefined : now + report.resetMs;
			const fresh = { ...report, fullAt, sentBefore, place };
			const tightest =
				kept === undefined || this.#left(fresh, cost) <= this.#left(kept.tightest, cost)
					? fresh
					: kept.tightest;
			return { tightest, latest: fresh };
		};
		this.#requests = known(requests, this.#requests, 1);
		this.#tokens = known(tokens, this.#tokens, this.#perRequest());
	}

	/** Counts a reply's `total_tokens`, for the average a request is reckoned to cost. */
	spent(totalTokens: unknown): void {
		if (typeof totalTokens !== 'number' || !Number.isFinite(totalTokens)) return;
		this.#tokensSpent += totalTokens;
		this.#replies++;
	}

	/** How long a new request must be held now, in ms: 0 to go. */
	holdMs(now = Date.now()): number {
		return Math.max(this.#hold('requests', 1, now), this.#hold('tokens', this.#perRequest(), now));
	}

	#perRequest(): number {
		return this.#replies === 0 ? 1 : this.#tokensSpent / this.#replies;
	}

	/** What may still go of a limit as `seen` tells it, in its unit. */
	#left(seen: Seen, cost: number): number {
		return seen.remaining * this.#share - (this.#sent - seen.sentBefore) * cost;
	}

	#hold(limit: 'requests' | 'tokens', cost: number, now: number): number {
		const known = limit === 'requests' ? this.#requests : this.#tokens;
		if (known === undefined) return 0;
		const seen = known.tightest;
		if (this.#left(seen, cost) >= cost) return 0;
		if (seen.fullAt !== undefined && now < seen.fullAt) return seen.fullAt - now;
		// Past the reset: a reply that came later and tells of a later reset (the next window's, when the tightest
		// figure came from the last moments of the one before) says what is left now.
		if (known.latest.fullAt !== undefined && known.latest.fullAt > now) {
			known.tightest = known.latest;
			return this.#hold(limit, cost, now);
		}
		// Else the bucket is full again: what it holds may go from here, and once that is used up too, the next
		// reset is reckoned a period as long as the last (the replies' headers soon say better). Without a limit
		// or a reset nothing is known.
		const refilled: Seen | undefined =
			seen.limit === undefined || seen.fullAt === undefined
				? undefined
				: {
						...seen,
						remaining: seen.limit,
						fullAt: now + (seen.resetMs ?? 0),
						sentBefore: this.#sent,
					};
		const next = refilled === undefined ? undefined : { tightest: refilled, latest: refilled };
		if (limit === 'requests') this.#requests = next;
		else this.#tokens = next;
		return 0;
	}
}
