import type { CatalogueModel } from './catalogue';
import { readCatalogue } from './catalogue';
import type { Connection } from '../connection';
import { optionGets } from '../requests';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';

/**
 * The key's models with their kinds, limits and prices (see readCatalogue), through the run with Options'
 * Timeout and retries, as the balance is asked (the Account node's List Models).
 */
export async function keyModels(
	context: Sender,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
): Promise<CatalogueModel[]> {
	return await readCatalogue(optionGets(context, connection, run, options));
}
