/** The Token Budget and the run that owns it: every attempt checked, only what the budget left pays for in flight. */
import { ServiceError, TokenBudgetSpent } from '../../../engine/failures/errors';
import { Run } from '../../../engine/run/run';
import { TokenBudget } from '../../../engine/run/token-budget';
import { retried } from '../../support/retries.cts';

describe('TokenBudget', () => {
	test('one request before the first reply, then what is left over the largest reply, at most twice the replies', () => {
		const budget = new TokenBudget(1000);
		expect(budget.room()).toBe(1);
		budget.spend(10);
		// 990 left would pay for 99 replies of 10; one reply counted allows 2.
		expect(budget.room()).toBe(2);
		budget.spend(10);
		budget.spend(10);
		expect(budget.room()).toBe(6);
		budget.spend(300);
		// 670 left at the largest reply, 300.
		expect(budget.room()).toBe(2);
	});

	test('a request goes only while the largest reply so far fits in what is left', () => {
		const budget = new TokenBudget(20);
		budget.spend(3);
		budget.check();
		budget.spend(12);
		// 5 left, the largest reply 12.
		expect(() => budget.check()).toThrow(TokenBudgetSpent);
	});

	test('the largest reply, not the last: a small reply after a large one does not let the next request go', () => {
		const budget = new TokenBudget(20);
		budget.spend(12);
		budget.spend(3);
		// 5 left, the largest reply 12 (the last, 3, would fit).
		expect(() => budget.check()).toThrow(TokenBudgetSpent);
	});

	test('spent: the check throws, naming the spend as it is when the failure is read', () => {
		const budget = new TokenBudget(10);
		budget.spend(10);
		let caught: unknown;
		try {
			budget.check();
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(TokenBudgetSpent);
		budget.spend(4);
		expect((caught as TokenBudgetSpent).budget.spent).toBe(14);
		expect(budget.room()).toBe(1);
	});

	test('a reply without usage counts nothing, warns once, and leaves the run uncapped', () => {
		const warnings: string[] = [];
		const budget = new TokenBudget(10, (message) => warnings.push(message));
		budget.spend(undefined);
		budget.spend(undefined);
		expect(budget.spent).toBe(0);
		expect(budget.room()).toBe(Infinity);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/Stream Usage/);
	});
});

describe('a run with a Token Budget', () => {
	test('keeps in flight only what the budget left pays for', async () => {
		const run = new Run({ concurrency: 0, tokenBudget: 30 });
		let inFlight = 0;
		let most = 0;
		const answers: Array<() => void> = [];
		const send = () =>
			run.send(
				() =>
					new Promise<number>((resolve) => {
						most = Math.max(most, ++inFlight);
						answers.push(() => (inFlight--, resolve(5)));
					}),
				{ signal: run.signal(), first: true, tokensOf: (tokens) => tokens },
			);
		const sent = Array.from({ length: 20 }, () => send().catch((error: unknown) => error));
		await new Promise((resolve) => setImmediate(resolve));
		// One before the first reply.
		expect(most).toBe(1);
		for (let turn = 0; turn < 20 && answers.length > 0; turn++) {
			answers.shift()!();
			await new Promise((resolve) => setImmediate(resolve));
		}
		const results = await Promise.all(sent);
		expect(results.filter((result) => result === 5)).toHaveLength(6);
		expect(results.filter((result) => result instanceof TokenBudgetSpent)).toHaveLength(14);
		expect(run.budget!.spent).toBe(30);
		expect(most).toBeLessThanOrEqual(5);
	});

	test('a retry is checked too: a request that met a 503 is not sent again once the budget is spent', async () => {
		const run = new Run({ concurrency: 1, tokenBudget: 5 });
		let calls = 0;
		const failing = retried(
			async () => {
				calls++;
				// While this request waits to retry, another reply spends the budget.
				run.budget!.spend(5);
				throw new ServiceError(503, 'Overloaded', undefined, undefined, 'json');
			},
			{ maxRetries: 3, maxWaitMs: 60_000, maxRateLimitWaitMs: 60_000 },
			run,
		);
		await expect(failing).rejects.toBeInstanceOf(TokenBudgetSpent);
		expect(calls).toBe(1);
	});
});
