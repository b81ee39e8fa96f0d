/** The answer of a fault model (models/faults.mts) at any endpoint: chat, embeddings and rerank alike. */
import type { ServerResponse } from 'node:http';
import { sendText } from './http-io.mts';
import type { ModelDefinition, RawReply } from './models/model.mts';

/** Sends the fault model's raw reply and returns true; false (nothing sent) for any other model. */
export async function sentFaultReply(
	res: ServerResponse,
	model: ModelDefinition,
): Promise<boolean> {
	if (model.ownedBy !== 'local-faults') return false;
	// A fault model answers every request alike: it reads nothing of it.
	const reply = (await model.respond(undefined as never, {})) as RawReply;
	sendText(res, reply.status, reply.body, reply.headers);
	return true;
}
