import type { BudgetCount } from '../failures/errors';
import { TokenBudgetSpent } from '../failures/errors';

/**
 * Options > Token Budget: the most tokens (the service's `total_tokens`) one run of a node may spend over
 * all its items. Every attempt is checked before it is sent (retries and fallbacks too): it goes only while
 * the largest reply so far fits in what is left. Replies count as they arrive. While replies with usage come
 * back, the run keeps in flight only what the budget left pays for at the largest reply so far, and at most
 * twice as many requests as replies counted (one before the first reply): replies that grow (a short first
 * item, long ones after it) meet the budget after a few requests, not after a round sized by the first.
 */
export class TokenBudget implements BudgetCount {
	spent = 0;
	/** The largest reply counted so far, in tokens. */
	largest = 0;
	/** Replies that reported usage, and those that did not (they count nothing: the service said nothing). */
	#metered = 0;
	#unmetered = 0;

	/** `warn`: told once when a reply without usage comes, which the budget cannot count. */
	constructor(
		readonly limit: number,
		private readonly warn: (message: string) => void = () => undefined,
	) {}

	/**
	 * Throws TokenBudgetSpent when the replies so far reached the budget, or the largest of them would not fit
	 * in what is left: the request is not sent.
	 */
	check(): void {
		if (this.limit - this.spent < Math.max(1, this.largest)) throw new TokenBudgetSpent(this);
	}

	/** Counts a reply's `total_tokens`. */
	spend(totalTokens: unknown): void {
		if (typeof totalTokens === 'number' && Number.isFinite(totalTokens)) {
			this.spent += totalTokens;
			this.largest = Math.max(this.largest, totalTokens);
			this.#metered++;
			return;
		}
		if (this.#unmetered++ === 0) {
			this.warn(
				'Token Budget: the service sent a reply without usage, which counts nothing against the budget. With Stream on, switch Options > Stream Usage on (the service then reports usage in the stream).',
			);
		}
	}

	/**
	 * How many requests may be in flight now: what the budget left pays for at the largest reply so far, at
	 * most twice the replies counted; one before the first reply (and once it is spent, so that waiting
	 * requests reach the check and fail). Without usage in the replies there is nothing to go by: no cap.
	 */
	room(): number {
		const left = this.limit - this.spent;
		if (left <= 0) return 1;
		if (this.#metered === 0) return this.#unmetered === 0 ? 1 : Infinity;
		return Math.max(1, Math.min(2 * this.#metered, Math.floor(left / Math.max(1, this.largest))));
	}
}
