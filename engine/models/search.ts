import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { ModelKind } from './catalogue';
import { readCatalogue, usableFor } from './catalogue';
import { listGet } from './list';
import { priceWords } from './price-words';
import { readConnection } from '../connection';
import { describeProblem } from '../problems/describe-problem';
import { toNodeError } from '../problems/node-error';
import { CREDENTIAL_WORDS } from './words';

/** The kind of model a node's Model list shows: one for the node, or one for the operation chosen. */
export type ListKind = ModelKind | ((context: ILoadOptionsFunctions) => ModelKind);

/**
 * "From list": the models the selected key may call that a node of `kind` can use (those whose kind the
 * gateway does not tell as well), filtered by the search text, each described by its prices and context.
 */
export function searchModelsOf(kind: ListKind) {
	return async function searchModels(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		let context = {};
		try {
			const connection = await readConnection(this);
			context = connection;
			const needle = (filter ?? '').trim().toLowerCase();
			const wanted = typeof kind === 'function' ? kind(this) : kind;
			const models = (await readCatalogue(listGet(this, connection))).filter(
				(model) => usableFor(model, wanted) && model.id.toLowerCase().includes(needle),
			);
			return {
				results: models.map((model) => ({
					name: model.id,
					value: model.id,
					description:
						priceWords(model) || (model.ownedBy ? `Owned by ${model.ownedBy}` : undefined),
				})),
			};
		} catch (error) {
			const problem = describeProblem(error, { ...context, words: CREDENTIAL_WORDS });
			problem.message = `Could not load the models: ${problem.message}`;
			problem.description = `${problem.description} You can still switch the Model field to "ID" and type a model ID.`;
			throw toNodeError(this.getNode(), problem);
		}
	};
}
