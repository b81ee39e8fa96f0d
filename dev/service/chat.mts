/** POST /v1/chat/completions, with the `x_local` test knobs applied (knobs.mts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { sendCompletion, streamCompletion } from './answer.mts';
import { resolveModel } from './catalog.mts';
import { parseChatRequest } from './chat-request.mts';
import { completionChunks } from './completion-chunks.mts';
import { completionBody, completionMeta, usageFor } from './completion.mts';
import type { KeyRecord, ServiceConfig } from './config.mts';
import { ApiError } from './errors.mts';
import { sendText } from './http-io.mts';
import { withKnobContent } from './knob-content.mts';
import type { KnobCounts } from './knob-counts.mts';
import { checkFailFirst, checkResponseFormat } from './knob-faults.mts';
import { invalidJsonMode } from './knob-invalid-json.mts';
import { setBillingHeaders, withUsageCost } from './knob-billing.mts';
import { asksCaching, cachePoint, withCacheUse, type PromptCache } from './prompt-cache.mts';
import { cutOff } from './request-log.mts';

/** new-api's answer when the account's balance is used up. */
export const outOfBalance = new ApiError({
	status: 403,
	message: '用户额度不足, 剩余额度: $0.000000',
	type: 'new_api_error',
	code: 'insufficient_user_quota',
});

export interface ChatContext {
	key: KeyRecord;
	config: ServiceConfig;
	counts: KnobCounts;
	promptCache: PromptCache;
}

/** The answer of a service without prompt caching to `cache_control` (LiteLLM's for a provider that lacks it). */
const noCaching = new ApiError({
	status: 400,
	message: 'Extra inputs are not permitted: cache_control',
	type: 'invalid_request_error',
	param: 'cache_control',
	code: 'invalid_request_error',
});

/**
 * Validates the request, checks the model against the key's group and the balance, applies the fault
 * knobs (reject_response_format, slow_ms, reset, fail_first), lets the model answer (told whether
 * invalid_json is due), waits stall_headers_ms, then answers.
 */
export async function chatCompletion(
	req: IncomingMessage,
	res: ServerResponse,
	rawBody: string,
	context: ChatContext,
): Promise<void> {
	const request = parseChatRequest(req.headers['content-type'], rawBody);
	setBillingHeaders(res, request.knobs);
	const model = resolveModel(context.config, context.key, request.model);
	if (context.key.outOfBalance) throw outOfBalance;
	const { knobs } = request;
	checkResponseFormat(knobs.rejectResponseFormat, request.responseFormat);
	if (knobs.rejectCacheControl && asksCaching(request.messages, request.automaticCache)) {
		throw noCaching;
	}
	if (knobs.slowMs > 0) await delay(knobs.slowMs);
	if (knobs.reset) {
		cutOff(res);
		return;
	}
	checkFailFirst(knobs.failFirst, context.counts);

	const modelReply = await model.respond(request, {
		invalidJson: invalidJsonMode(knobs.invalidJson, context.counts),
	});
	if (knobs.stallHeadersMs > 0) await delay(knobs.stallHeadersMs);
	if (modelReply.kind === 'raw') {
		sendText(res, modelReply.status, modelReply.body, modelReply.headers);
		return;
	}
	const reply = withKnobContent(modelReply, knobs);
	const point = cachePoint(request.messages, request.automaticCache);
	const cacheUse =
		point === undefined ? undefined : context.promptCache.use(context.key.key, point);
	const usage = withUsageCost(
		withCacheUse(usageFor(request, reply, knobs.cachedTokens), cacheUse),
		knobs,
	);
	const meta = completionMeta(reply, knobs.completionId);
	if (!request.stream || knobs.ignoreStream) {
		await sendCompletion(res, completionBody(reply, usage, meta, knobs), knobs);
		return;
	}
	const plan = completionChunks(reply, meta, request.includeUsage ? usage : undefined, knobs);
	await streamCompletion(res, plan, knobs);
}
