import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { balanceAnswer, balanceWords, readBalance } from '../account/balance';
import type { Connection } from '../connection';
import { connectionFrom, hasVersionSegment, siteRoot } from '../connection';
import { describeProblem } from '../problems/describe-problem';
import { parseModels } from '../reply/models';
import { probe } from '../transport/probe';
import { CREDENTIAL_WORDS } from './words';

/**
 * The key's balance in words (`; balance $4.20 left`), when one of the endpoints that tell it answers; else
 * nothing: a service without them passes the test all the same.
 */
async function balanceNote(connection: Connection): Promise<string> {
	try {
		const balance = await readBalance(async ({ path, root }) =>
			balanceAnswer(
				await probe(
					connection,
					`${root ? siteRoot(connection.baseUrl) : connection.baseUrl}/${path}`,
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
 * where the service tells it, the balance (asked at the same time).
 */
export async function testChatCompletionsApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let context = {};
	try {
		const connection = connectionFrom(credential.data ?? {});
		context = connection;
		const balance = balanceNote(connection);
		const models = parseModels(await probe(connection, `${connection.baseUrl}/models`));
		const count = models.length === 1 ? '1 model' : `${models.length} models`;
		const hint = hasVersionSegment(connection.baseUrl)
			? ''
			: ' Note: the Base URL has no /v1; chat requests may answer 404.';
		return {
			status: 'OK',
			message: `Connection successful: this key may use ${count}${await balance}.${hint}`,
		};
	} catch (error) {
		const problem = describeProblem(error, { ...context, words: CREDENTIAL_WORDS });
		return { status: 'Error', message: `${problem.message}. ${problem.description}` };
	}
}
