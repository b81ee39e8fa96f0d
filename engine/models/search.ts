import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { readConnection } from '../connection';
import { describeProblem } from '../problems/describe-problem';
import { toNodeError } from '../problems/node-error';
import { listModels } from './list';
import { CREDENTIAL_WORDS } from './words';

/** "From list": the models the selected key may call (`GET /models`), filtered by the search text. */
export async function searchModels(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	let context = {};
	try {
		const connection = await readConnection(this);
		context = connection;
		const needle = (filter ?? '').trim().toLowerCase();
		const models = (await listModels(this, connection)).filter((model) =>
			model.id.toLowerCase().includes(needle),
		);
		return {
			results: models.map((model) => ({
				name: model.id,
				value: model.id,
				description: model.ownedBy ? `Owned by ${model.ownedBy}` : undefined,
			})),
		};
	} catch (error) {
		const problem = describeProblem(error, { ...context, words: CREDENTIAL_WORDS });
		problem.message = `Could not load the models: ${problem.message}`;
		problem.description = `${problem.description} You can still switch the Model field to "ID" and type a model ID.`;
		throw toNodeError(this.getNode(), problem);
	}
}
