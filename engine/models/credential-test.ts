import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import type { BalanceGet } from '../account/balance';
import { balanceAnswer, balanceWords, readBalance } from '../account/balance';
import type { Connection } from '../connection';
import { connectionFrom, hasVersionSegment, siteRoot } from '../connection';
import { describeProblem } from '../problems/describe-problem';
import { parseModels } from '../reply/models';
import { probe } from '../transport/probe';
import { CREDENTIAL_WORDS } from './words';

/**
 * How long the test waits for each balance endpoint: the five of them, asked one after another, take no longer
 * than the models' 20 s at worst.
 */
const BALANCE_PROBE_TIMEOUT_MS = 4_000;

/**
 * `get` with one request in flight at a time, each sent once the one before has answered: the test sends no
 * more at once than any key allows (a gateway may cap a key's requests in flight, and refuse the rest with 429).
 */
function oneAtATime(get: BalanceGet): BalanceGet {
	let previous: Promise<unknown> = Promise.resolve();
	return async (path) => {
		const answer = previous.then(async () => await get(path));
		previous = answer.catch(() => undefined);
		return await answer;
	};
}

/**
 * The key's balance in words (`; balance $4.20 left`), when one of the endpoints that tell it answers; else
 * nothing: a service without them, or one that refuses them (a 429 included), passes the test all the same.
 */
async function balanceNote(connection: Connection): Promise<string> {
	try {
		const balance = await readBalance(
			oneAtATime(async ({ path, root }) =>
				balanceAnswer(
					await probe(
						connection,
						`${root ? siteRoot(connection.baseUrl) : connection.baseUrl}/${path}`,
						BALANCE_PROBE_TIMEOUT_MS,
					),
				),
			),
		);
		return `; balance ${balanceWords(balance)}`;
	} catch {
		return '';
	}
}

/**
 * The credential test: proves the key with `GET /models` (no tokens spent), says how many models it may use and,
 * where the service tells it, the balance (asked after the models, one endpoint at a time).
 */
export async function testChatCompletionsApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let context = {};
	try {
		const connection = connectionFrom(credential.data ?? {});
		context = connection;
		const models = parseModels(await probe(connection, `${connection.baseUrl}/models`));
		const count = models.length === 1 ? '1 model' : `${models.length} models`;
		const hint = hasVersionSegment(connection.baseUrl)
			? ''
			: ' Note: the Base URL has no /v1; chat requests may answer 404.';
		return {
			status: 'OK',
			message: `Connection successful: this key may use ${count}${await balanceNote(connection)}.${hint}`,
		};
	} catch (error) {
		const problem = describeProblem(error, { ...context, words: CREDENTIAL_WORDS });
		return { status: 'Error', message: `${problem.message}. ${problem.description}` };
	}
}
