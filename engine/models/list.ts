import type { Connection } from '../connection';
import type { ModelEntry } from '../reply/models';
import { parseModels } from '../reply/models';
import type { Sender } from '../transport/outgoing';
import { send } from '../transport/http';
import { chooseRoute } from '../transport/route';

const LIST_TIMEOUT_MS = 30_000;

/** The models the key may call (`GET /models`), sorted by ID; a failure throws as any request's does. */
export async function listModels(
	context: Sender,
	connection: Connection,
	cancel?: AbortSignal,
): Promise<ModelEntry[]> {
	const reply = await send(await chooseRoute(context, connection), {
		method: 'GET',
		url: `${connection.baseUrl}/models`,
		timeout: LIST_TIMEOUT_MS,
		connection,
		cancel,
	});
	return parseModels(reply);
}
