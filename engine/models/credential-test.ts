import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { readCatalogue } from './catalogue';
import { kindCounts } from './kind-counts';
import { balanceAnswer, balanceWords, readBalance } from '../account/balance';
import type { Connection } from '../connection';
import { connectionFrom, hasVersionSegment, siteRoot } from '../connection';
import { describeProblem } from '../problems/describe-problem';
import type { PathGet } from '../transport/outgoing';
import { probe } from '../transport/probe';
import { CREDENTIAL_WORDS } from './words';

/**
 * How long the test waits for each balance endpoint: the five of them, asked one after another, take no longer
 * than the models' 20 s at worst.
 */
const BALANCE_PROBE_TIMEOUT_MS = 4_000;

/**
 * GETs of the connection's endpoints (at the Base URL, or at the site's root), one request in flight at a time,
 * each sent once the one before has answered: the test sends no more at once than any key allows (a gateway may
 * cap a key's requests in flight, and refuse the rest with 429). Each gives up after `timeoutMs`.
 */
function oneAtATime(connection: Connection): (timeoutMs?: number) => PathGet {
	let previous: Promise<unknown> = Promise.resolve();
	return (timeoutMs) =>
		async ({ path, root }, read) => {
			const url = `${root ? siteRoot(connection.baseUrl) : connection.baseUrl}/${path}`;
			const answer = previous.then(async () => read(await probe(connection, url, timeoutMs)));
			previous = answer.catch(() => undefined);
			return await answer;
		};
}

/**
 * The key's balance in words (`; balance $4.20 left`), when one of the endpoints that tell it answers; else
 * nothing: a service without them, or one that refuses them (a 429 included), passes the test all the same.
 */
async function balanceNote(get: PathGet): Promise<string> {
	try {
		const balance = await readBalance(async (path) => await get(path, balanceAnswer));
		return `; balance ${balanceWords(balance)}`;
	} catch {
		return '';
	}
}

/**
 * The credential test: proves the key with the catalogue of its models (`GET /models`, no tokens spent), says how
 * many models it may use by kind and, where the service tells it, the balance (asked after the models, one
 * endpoint at a time).
 */
export async function testChatCompletionsApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let context = {};
	try {
		const connection = connectionFrom(credential.data ?? {});
		context = connection;
		const gets = oneAtATime(connection);
		const count = kindCounts(await readCatalogue(gets()));
		const hint = hasVersionSegment(connection.baseUrl)
			? ''
			: ' Note: the Base URL has no /v1; chat requests may answer 404.';
		return {
			status: 'OK',
			message: `Connection successful: this key may use ${count}${await balanceNote(gets(BALANCE_PROBE_TIMEOUT_MS))}.${hint}`,
		};
	} catch (error) {
		const problem = describeProblem(error, { ...context, words: CREDENTIAL_WORDS });
		return { status: 'Error', message: `${problem.message}. ${problem.description}` };
	}
}
