import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { connectionFrom, hasVersionSegment } from '../connection';
import { describeProblem } from '../problems/describe-problem';
import { parseModels } from '../reply/models';
import { probeModels } from '../transport/probe';
import { CREDENTIAL_WORDS } from './words';

/** The credential test: proves the key with `GET /models` (no tokens spent) and says how many models it may use. */
export async function testChatCompletionsApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	let context = {};
	try {
		const connection = connectionFrom(credential.data ?? {});
		context = connection;
		const models = parseModels(await probeModels(connection));
		const count = models.length === 1 ? '1 model' : `${models.length} models`;
		const hint = hasVersionSegment(connection.baseUrl)
			? ''
			: ' Note: the Base URL has no /v1; chat requests may answer 404.';
		return { status: 'OK', message: `Connection successful: this key may use ${count}.${hint}` };
	} catch (error) {
		const problem = describeProblem(error, { ...context, words: CREDENTIAL_WORDS });
		return { status: 'Error', message: `${problem.message}. ${problem.description}` };
	}
}
