import type { LimitReport } from '../reply/rate-limit-headers';
import { rateLimitHeaders } from '../reply/rate-limit-headers';

/** The least share of a key's limit one process takes, however many others are seen using it. */
const MIN_SHARE = 0.05;

/** What the latest reply said of one limit, and how many requests had been sent when its request went. */
interface Seen extends LimitReport {
	/** When the bucket is full again (Unix ms), when said. */
	fullAt?: number;
	/** The count of requests sent up to and including the one this reply answers. */
	sentBefore: number;
}

/**
 * Pacing from the `x-ratelimit-*` headers a key's replies carry (OpenAI, LiteLLM): what is left of a limit,
 * less what was sent since the request that reply answers, is what may still go; when that is used up, new
 * requests are held until the reset the reply gave (the bucket is full again then), so that they meet no 429.
 * Requests count 1 each, tokens the average reply's `total_tokens`. When the service counts more between two
 * replies than went from here (other queue-mode workers on the key), only this process's share of what is left
 * is taken. Shared by every run on the key in this n8n process (`key-state.ts`).
 */
export class Pacer {
	#sent = 0;
	#requests?: Seen;
	#tokens?: Seen;
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

	/** Reads a reply's headers; `place` is its request's, from `take`. The latest request's reply wins. */
	observe(headers: Record<string, string>, place: number, now = Date.now()): void {
		const { requests, tokens } = rateLimitHeaders(headers);
		const seen = (report: LimitReport | undefined, last: Seen | undefined) => {
			if (report === undefined || (last !== undefined && last.sentBefore > place)) return last;
			const fullAt = report.resetMs === undefined ? undefined : now + report.resetMs;
			return { ...report, fullAt, sentBefore: place };
		};
		const last = this.#requests;
		if (requests !== undefined && last !== undefined && place > last.sentBefore) {
			const counted = last.remaining - requests.remaining;
			// A bucket that refilled in between counts less than was used: such a reply says nothing of others.
			if (counted > 0) {
				const ours = Math.min(1, (place - last.sentBefore) / counted);
				this.#share = Math.max(MIN_SHARE, (this.#share + ours) / 2);
			}
		}
		this.#requests = seen(requests, this.#requests);
		this.#tokens = seen(tokens, this.#tokens);
	}

	/** Counts a reply's `total_tokens`, for the average a request is reckoned to cost. */
	spent(totalTokens: unknown): void {
		if (typeof totalTokens !== 'number' || !Number.isFinite(totalTokens)) return;
		this.#tokensSpent += totalTokens;
		this.#replies++;
	}

	/** How long a new request must be held now, in ms: 0 to go. */
	holdMs(now = Date.now()): number {
		const perRequest = this.#replies === 0 ? 1 : this.#tokensSpent / this.#replies;
		return Math.max(this.#hold('requests', 1, now), this.#hold('tokens', perRequest, now));
	}

	#hold(limit: 'requests' | 'tokens', cost: number, now: number): number {
		const seen = limit === 'requests' ? this.#requests : this.#tokens;
		if (seen === undefined) return 0;
		const left = seen.remaining * this.#share - (this.#sent - seen.sentBefore) * cost;
		if (left >= cost) return 0;
		if (seen.fullAt !== undefined && now < seen.fullAt) return seen.fullAt - now;
		// Past the reset the bucket is full again: what it holds may go from here, and once that is used up too,
		// the next reset is reckoned a period as long as the last (the replies' headers soon say better).
		// Without a limit or a reset nothing is known.
		const refilled =
			seen.limit === undefined || seen.fullAt === undefined
				? undefined
				: {
						...seen,
						remaining: seen.limit,
						fullAt: now + (seen.resetMs ?? 0),
						sentBefore: this.#sent,
					};
		if (limit === 'requests') this.#requests = refilled;
		else this.#tokens = refilled;
		return 0;
	}
}
