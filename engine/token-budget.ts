import { TokenBudgetSpent } from './failures';

/**
 * Options > Token Budget: the most tokens (the service's `total_tokens`) one run of a node may spend over
 * all its items. Replies count as they arrive; once they reach the budget no further request is sent
 * (requests already in flight finish and count).
 */
export class TokenBudget {
	spent = 0;

	constructor(readonly limit: number) {}

	/** Throws TokenBudgetSpent when the replies so far reached the budget: the request is not sent. */
	check(): void {
		if (this.spent >= this.limit) throw new TokenBudgetSpent(this.limit, this.spent);
	}

	/** Counts a reply's `total_tokens` (a reply without usage counts nothing: the service said nothing). */
	spend(totalTokens: unknown): void {
		if (typeof totalTokens === 'number' && Number.isFinite(totalTokens)) this.spent += totalTokens;
	}
}
