/** POST /v1/chat/completions (SERVICE.md 4.1). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveModel } from './catalog.mts';
import { parseChatRequest } from './chat-request.mts';
import { completionBody, completionChunks, completionMeta, usageFor } from './completion.mts';
import type { KeyRecord, ServiceConfig } from './config.mts';
import { ApiError } from './errors.mts';
import { sendJson, sendText } from './http-io.mts';
import { SseWriter } from './sse.mts';

/** new-api's answer when the account's balance is used up. */
const outOfBalance = new ApiError({
	status: 403,
	message: '用户额度不足, 剩余额度: $0.000000',
	type: 'new_api_error',
	code: 'insufficient_user_quota',
});

/** Validates the request, checks the model against the key's group and the balance, then answers. */
export function chatCompletion(
	req: IncomingMessage,
	res: ServerResponse,
	rawBody: string,
	key: KeyRecord,
	config: ServiceConfig,
): void {
	const request = parseChatRequest(req.headers['content-type'], rawBody);
	const model = resolveModel(config, key, request.model);
	if (key.outOfBalance) throw outOfBalance;

	const reply = model.respond(request);
	if (reply.kind === 'raw') {
		sendText(res, reply.status, reply.body, reply.headers);
		return;
	}
	const usage = usageFor(request, reply);
	const meta = completionMeta(reply);
	if (!request.stream) {
		sendJson(res, 200, completionBody(reply, usage, meta));
		return;
	}
	const sse = new SseWriter(res);
	for (const chunk of completionChunks(reply, meta, request.includeUsage ? usage : undefined)) {
		sse.json(chunk);
	}
	sse.done();
}
