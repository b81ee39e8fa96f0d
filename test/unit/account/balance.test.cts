/**
 * The balance readers (engine/account/balance.ts) on answers the local service does not give: OpenRouter's limit
 * that resets (limit_remaining apart from limit - usage), new-api's soft limit below its hard one, amounts whose
 * difference has a binary tail, and two gateways' endpoints answering at once. Each endpoint's answer is given as
 * the gateway sends it; anything not given answers 404.
 */
import { balanceAnswer, readBalance } from '../../../engine/account/balance';
import type { BalancePath } from '../../../engine/account/balance';
import { replyWith as reply } from '../../support/sub-node-replies.cts';

/** A `get` that answers the paths in `answers` and 404 for the rest, each read as the node reads it. */
function gateway(answers: Record<string, Record<string, unknown>>) {
	return async ({ path }: BalancePath) => {
		const answer = answers[path];
		return await Promise.resolve(
			balanceAnswer(
				answer === undefined ? reply({ error: { message: 'Not Found' } }, 404) : reply(answer),
			),
		);
	};
}

test("OpenRouter's key with a limit that resets: what is left is limit_remaining, not limit minus usage", async () => {
	const balance = await readBalance(
		gateway({
			key: { data: { usage: 12.5, limit: 20, limit_remaining: 3.25, limit_reset: 'monthly' } },
		}),
	);
	expect(balance).toEqual({
		remaining: 3.25,
		used: 12.5,
		limit: 20,
		currency: 'USD',
		source: 'GET /key',
	});
});

test("new-api's billing: the limit is hard_limit_usd, not the soft limit that only warns", async () => {
	const balance = await readBalance(
		gateway({
			'dashboard/billing/subscription': { soft_limit_usd: 5, hard_limit_usd: 10 },
			'dashboard/billing/usage': { total_usage: 250 },
		}),
	);
	expect(balance).toMatchObject({ remaining: 7.5, used: 2.5, limit: 10 });
});

test("LiteLLM's amounts whose difference has a binary tail: 0.3 - 0.1 left is 0.2", async () => {
	const balance = await readBalance(
		gateway({ 'key/info': { info: { spend: 0.1, max_budget: 0.3 } } }),
	);
	expect(balance).toMatchObject({ remaining: 0.2, used: 0.1, limit: 0.3 });
});

test('two gateways answering at once: the first in the order OpenRouter, new-api, LiteLLM tells the balance', async () => {
	const balance = await readBalance(
		gateway({
			key: { data: { usage: 1, limit: 10, limit_remaining: 9 } },
			'key/info': { info: { spend: 2, max_budget: 5 } },
		}),
	);
	expect(balance).toMatchObject({ remaining: 9, source: 'GET /key' });
});
