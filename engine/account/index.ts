/**
 * The account behind the key, as the engine's front door gives it (`keyBalance`): its balance, asked of the
 * endpoints gateways tell it at, through the run like every request (the key's pauses, the retries).
 *
 * `balance.ts`: `readBalance`: OpenRouter's `GET /key`, new-api's and one-api's billing endpoints,
 * LiteLLM's `GET /key/info`, new-api's `GET /api/usage/token`, all asked at once, the first in that order
 * that tells a balance; none: `BalanceUnavailableError` with what each answered, a refused key as itself;
 * `balanceWords` for the credential test. Here `keyBalance`: the same through `requests.ts` with Options'
 * Timeout and retries (the key's models, asked the same way, are `models/key-models.ts`).
 */
import type { Balance, BalancePath } from './balance';
import { balanceAnswer, readBalance } from './balance';
import type { Connection } from '../connection';
import { optionGets } from '../requests';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';

/** The key's balance (see readBalance), each endpoint asked with Options' Timeout and retries. */
export async function keyBalance(
	context: Sender,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
): Promise<Balance> {
	const get = optionGets(context, connection, run, options);
	return await readBalance(async (path: BalancePath) => await get(path, balanceAnswer));
}
