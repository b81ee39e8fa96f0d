/** POST /v1/rerank: the ranking of `rerank-1` (models/rerank.mts), with the `x_local` knobs applied (rerank-knobs.mts). */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ChatContext } from './chat.mts';
import { endpointModel } from './endpoint-model.mts';
import { ApiError, notFound } from './errors.mts';
import { consolePage, nginxPage } from './html-pages.mts';
import { sendJson, sendText } from './http-io.mts';
import { checkFailFirst } from './knob-faults.mts';
import { isRerankModel, type RerankModel } from './models/rerank.mts';
import { parseRerankKnobs, type RerankKnobs } from './rerank-knobs.mts';
import { parseRerankRequest, type RerankRequest } from './rerank-request.mts';
import { countWords } from './words.mts';

interface Result {
	index: number;
	relevance_score?: number | string;
	document?: { text: string };
}

/** vLLM's answer for a model that cannot rerank (a chat or embedding model), with this service's code. */
const cannotRerank = new ApiError({
	status: 400,
	message: 'The model does not support Rerank (Score) API',
	type: 'invalid_request_error',
	param: 'model',
	code: 'model_not_supported',
});

/** The knobs of this request: none when `for_query` names a text its query does not contain. */
function knobsOf(request: RerankRequest): RerankKnobs {
	const { knobs } = request;
	if (knobs.forQuery === undefined || request.query.includes(knobs.forQuery)) return knobs;
	return parseRerankKnobs(undefined);
}

/**
 * The documents scored, best first (the same score: in the order sent), cut to `top_n` unless `ignore_top_n`;
 * `shuffled` sends the same results worst first.
 */
function ranked(request: RerankRequest, model: RerankModel, knobs: RerankKnobs): Result[] {
	const results: Result[] = request.documents
		.map((text, index) => ({
			index,
			relevance_score: model.score(request.query, text),
			...(request.returnDocuments ? { document: { text } } : {}),
		}))
		.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
		.slice(0, knobs.ignoreTopN ? undefined : request.topN);
	return knobs.shuffled ? results.reverse() : results;
}

/** The results with `bad_reply`'s fault in them (`no_results` and `html` are the body's, not the results'). */
function broken(results: Result[], knobs: RerankKnobs, sent: number): Result[] {
	const [first] = results;
	const last = results.length - 1;
	switch (knobs.badReply) {
		case 'index_out_of_range':
			return results.map((result, at) => (at === last ? { ...result, index: sent } : result));
		case 'index_twice':
			return [...results, { ...first }];
		case 'no_score':
			return results.map((result, at) => {
				if (at !== last) return result;
				const { relevance_score: _dropped, ...withoutScore } = result;
				return withoutScore;
			});
		case 'text_score':
			return [{ ...first, relevance_score: String(first.relevance_score) }, ...results.slice(1)];
		default:
			return results;
	}
}

export async function rerank(
	res: ServerResponse,
	rawBody: string,
	context: ChatContext,
): Promise<void> {
	const request = parseRerankRequest(rawBody);
	const knobs = knobsOf(request);
	if (knobs.noRerank === 'html') {
		sendText(res, 404, nginxPage('404 Not Found'), {
			'Content-Type': 'text/html',
			Server: 'nginx',
		});
		return;
	}
	if (knobs.noRerank === 'json') throw notFound('POST', '/v1/rerank');
	const model = await endpointModel(res, request.model, context, isRerankModel, () => cannotRerank);
	if (model === undefined) return;
	checkFailFirst(knobs.failFirst, context.counts);
	if (knobs.badReply === 'html') {
		sendText(res, 200, consolePage, { 'Content-Type': 'text/html; charset=utf-8' });
		return;
	}
	const results = broken(ranked(request, model, knobs), knobs, request.documents.length);
	const words = request.documents.reduce((sum, text) => sum + countWords(text), 0);
	const usage = { total_tokens: countWords(request.query) + words };
	const list = knobs.badReply === 'no_results' ? { data: results } : { results };
	sendJson(res, 200, { id: `rerank-${randomUUID()}`, model: model.id, ...list, usage });
}
