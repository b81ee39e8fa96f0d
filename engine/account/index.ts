/**
 * The account behind the key, as the engine's front door gives it (`keyBalance`, `keyModels`): its balance,
 * asked of the endpoints gateways tell it at, and the catalogue of its models, through the run like every
 * request (the key's pauses, the retries).
 *
 * `balance.ts`: `readBalance`: OpenRouter's `GET /key`, new-api's and one-api's billing endpoints,
 * LiteLLM's `GET /key/info`, new-api's `GET /api/usage/token`, all asked at once, the first in that order
 * that tells a balance; none: `BalanceUnavailableError` with what each answered, a refused key as itself;
 * `balanceWords` for the credential test. Here `keyBalance`: the same through `requests.ts` with Options'
 * Timeout and retries, and `keyModels`: the catalogue (`models/catalogue.ts`) asked the same way.
 */
import type { Balance, BalancePath } from './balance';
import { balanceAnswer, readBalance } from './balance';
import type { Connection } from '../connection';
import type { CatalogueGet, CatalogueModel } from '../models/catalogue';
import { readCatalogue } from '../models/catalogue';
import { optionSetting } from '../options/read';
import { Requests } from '../requests';
import { retryPolicy } from '../request/retry-policy';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';

/** GETs through the run, each with Options' Timeout and retries. */
function runGet(
	context: Sender,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
): CatalogueGet {
	const requests = new Requests(context, connection, run);
	const request = { timeout: optionSetting(options, 'timeout'), retry: retryPolicy(options) };
	return async ({ path, root }, read) =>
		await requests.get({
			path,
			...(root ? { root } : {}),
			request,
			read,
			tokensOf: () => undefined,
		});
}

/** The key's balance (see readBalance), each endpoint asked with Options' Timeout and retries. */
export async function keyBalance(
	context: Sender,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
): Promise<Balance> {
	const get = runGet(context, connection, run, options);
	return await readBalance(async (path: BalancePath) => await get(path, balanceAnswer));
}

/** The key's models with their kinds, limits and prices (see readCatalogue), asked as keyBalance asks. */
export async function keyModels(
	context: Sender,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
): Promise<CatalogueModel[]> {
	return await readCatalogue(runGet(context, connection, run, options));
}
