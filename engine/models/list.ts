import type { Connection } from '../connection';
import { siteRoot } from '../connection';
import type { ModelEntry } from '../reply/models';
import { parseModels } from '../reply/models';
import type { PathGet, Sender } from '../transport/outgoing';
import { send } from '../transport/http';
import { chooseRoute } from '../transport/route';

const LIST_TIMEOUT_MS = 30_000;

/** GETs of the model endpoints, once each (no retries: a list search or a check before a batch). */
export function listGet(context: Sender, connection: Connection, cancel?: AbortSignal): PathGet {
	return async ({ path, root }, read) => {
		const reply = await send(await chooseRoute(context, connection), {
			method: 'GET',
			url: `${root ? siteRoot(connection.baseUrl) : connection.baseUrl}/${path}`,
			timeout: LIST_TIMEOUT_MS,
			connection,
			cancel,
		});
		return read(reply);
	};
}

/** The models the key may call (`GET /models`), sorted by ID; a failure throws as any request's does. */
export async function listModels(
	context: Sender,
	connection: Connection,
	cancel?: AbortSignal,
): Promise<ModelEntry[]> {
	return await listGet(context, connection, cancel)({ path: 'models' }, parseModels);
}
