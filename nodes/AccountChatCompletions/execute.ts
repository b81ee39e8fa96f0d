import type { IExecuteFunctions, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { WORDS } from './errors';
import type { Connection, Run } from '../../engine';
import { keyBalance, keyModels, problems, readConnection, startRun } from '../../engine';

/** What an operation answers, asked once for the whole run whatever the number of input items. */
type Operation = (
	context: IExecuteFunctions,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
) => Promise<IDataObject[]>;

/** Get Balance: one item, `remaining`, `used`, `limit`, `currency` or `unit`, and `source`. */
const getBalance: Operation = async (context, connection, run, options) => [
	{ ...(await keyBalance(context, connection, run, options)) },
];

/** A model of the key's catalogue, as keyModels gives it. */
type CatalogueModel = Awaited<ReturnType<typeof keyModels>>[number];

/** What a model costs in USD, in one shape: null where the gateway tells nothing. */
function pricingItem(pricing: CatalogueModel['pricing']): IDataObject {
	return {
		currency: 'USD',
		input_per_million: pricing?.inputPerMillion ?? null,
		output_per_million: pricing?.outputPerMillion ?? null,
		per_image: pricing?.perImage ?? null,
		per_second: pricing?.perSecond ?? null,
		per_call: pricing?.perCall ?? null,
	};
}

/**
 * List Models: one item per model the key may call, `id`, `kinds` (empty when the gateway does not tell),
 * `context_length`, `max_output_tokens`, `pricing` and `source` (the endpoints that told them).
 */
const listModels: Operation = async (context, connection, run, options) =>
	(await keyModels(context, connection, run, options)).map((model) => ({
		id: model.id,
		owned_by: model.ownedBy ?? null,
		kinds: model.kinds,
		context_length: model.contextLength ?? null,
		max_output_tokens: model.maxOutputTokens ?? null,
		pricing: pricingItem(model.pricing),
		source: model.source,
	}));

const OPERATIONS = { getBalance, listModels } satisfies Record<string, Operation>;

/**
 * The Account node's run: one request round for the whole run, whatever the number of input items, its items
 * paired with the first. A service that does not answer fails in the words of the failure table.
 */
export async function executeAccount(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	let connection: Connection | undefined;
	try {
		connection = await readConnection(this);
		const operation = OPERATIONS[this.getNodeParameter('operation', 0) as keyof typeof OPERATIONS];
		const options = this.getNodeParameter('options', 0, {}) as Record<string, unknown>;
		const items = await operation(this, connection, startRun(this, connection), options);
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	} catch (error) {
		const problem = problems.describeProblem(error, { ...connection, words: WORDS });
		if (!this.continueOnFail()) throw problems.toNodeError(this.getNode(), problem);
		const routeErrors = this.getNode().onError === 'continueErrorOutput';
		return [[problems.errorItem(this, problem, 0, routeErrors)]];
	}
}
