import { listModels } from './list';
import type { Connection } from '../connection';
import type { Sender } from '../transport/outgoing';

/**
 * The model IDs the key may call, for checking a batch before it is sent; undefined when the service does
 * not list them (an error, no such endpoint, a list that is not one, an empty list): then nothing is
 * checked and the requests say what is wrong, as before.
 */
export async function knownModels(
	context: Sender,
	connection: Connection,
	cancel?: AbortSignal,
): Promise<Set<string> | undefined> {
	try {
		const models = await listModels(context, connection, cancel);
		return models.length === 0 ? undefined : new Set(models.map((model) => model.id));
	} catch {
		return undefined;
	}
}
