/** The model of a request at an endpoint besides chat (embeddings, rerank, images, audio), checked as a gateway checks it. */
import type { ServerResponse } from 'node:http';
import { resolveModel } from './catalog.mts';
import { outOfBalance, type ChatContext } from './chat.mts';
import type { ApiError } from './errors.mts';
import { sentFaultReply } from './fault-reply.mts';
import type { ModelDefinition } from './models/model.mts';

/**
 * The model `id` names, once the key may call it (404 unknown, 403 outside the group) and has balance (403); a
 * fault model answers at once as it does to chat (then undefined: the answer is sent); a model the endpoint does
 * not serve gets `refusal`.
 */
export async function endpointModel<M extends ModelDefinition>(
	res: ServerResponse,
	id: string,
	context: ChatContext,
	serves: (model: ModelDefinition) => model is M,
	refusal: (model: ModelDefinition) => ApiError,
): Promise<M | undefined> {
	const model = resolveModel(context.config, context.key, id);
	if (context.key.outOfBalance) throw outOfBalance;
	if (await sentFaultReply(res, model)) return undefined;
	if (!serves(model)) throw refusal(model);
	return model;
}
