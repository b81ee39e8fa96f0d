import { keys, useLocalService } from '../../support/service.cts';
import { chat, embed, expectInvalidRequest, hello, rerank, withService } from './client.cts';

const service = useLocalService();

const query = 'capital of France';
const documents = [
	'The cat sat on the mat',
	'Paris is the capital of France',
	'Lyon is a city in France',
	'Berlin is the capital of Germany',
];
/** The share of the query's three words each document contains, best first (the same score: in the order sent). */
const expected = [
	{ index: 1, relevance_score: 1 },
	{ index: 3, relevance_score: 2 / 3 },
	{ index: 2, relevance_score: 1 / 3 },
	{ index: 0, relevance_score: 0 },
];

const ranks = (body: Record<string, unknown>) =>
	rerank(service(), keys.rag, { model: 'rerank-1', query, documents, ...body });

describe('POST /v1/rerank', () => {
	it("scores each document by the share of the query's words it holds, best first, with usage in words", async () => {
		const reply = await ranks({});
		expect(reply.status).toBe(200);
		expect(reply.json).toEqual({
			id: expect.stringMatching(/^rerank-/),
			model: 'rerank-1',
			results: expected,
			usage: { total_tokens: 3 + 6 + 6 + 6 + 6 },
		});
		expect((await ranks({})).json.results).toEqual(expected);
	});

	it('answers the top_n best, and every document when top_n is above their number', async () => {
		expect((await ranks({ top_n: 2 })).json.results).toEqual(expected.slice(0, 2));
		expect((await ranks({ top_n: 10 })).json.results).toEqual(expected);
	});

	it("takes documents as {text} and gives each result its document with return_documents (Jina's shape)", async () => {
		const reply = await ranks({
			documents: documents.map((text) => ({ text })),
			top_n: 1,
			return_documents: true,
		});
		expect(reply.json.results).toEqual([
			{ index: 1, relevance_score: 1, document: { text: 'Paris is the capital of France' } },
		]);
	});

	it.each([
		['an empty query', { query: '' }, 'query', /^'query' must be a non-empty string/],
		['no documents', { documents: [] }, 'documents', /^'documents' must be a non-empty array/],
		['an empty document', { documents: ['a', ''] }, 'documents[1]', /^'documents\[1\]' must be/],
		[
			'a document without text',
			{ documents: [{ title: 'a' }] },
			'documents[0]',
			/with a non-empty 'text'/,
		],
		[
			'1001 documents',
			{ documents: Array.from({ length: 1001 }, () => 'a') },
			'documents',
			/maximum 1000 documents per request, got 1001/,
		],
		['top_n 0', { top_n: 0 }, 'top_n', /^'top_n' must be a positive integer/],
		[
			'return_documents as text',
			{ return_documents: 'yes' },
			'return_documents',
			/must be a boolean/,
		],
		[
			'an unknown field',
			{ rank_fields: ['text'] },
			'rank_fields',
			/^Unrecognized request argument supplied: rank_fields/,
		],
	])('refuses %s with a 400 naming the field', async (_name, body, param, message) => {
		expectInvalidRequest(await ranks(body), param, message);
	});

	it('refuses chat and embedding models as vLLM does, and rerank-1 at the other endpoints', async () => {
		for (const model of ['echo-1', 'embed-1']) {
			const reply = await ranks({ model });
			expect(reply.status).toBe(400);
			expect(reply.json.error).toMatchObject({
				message: 'The model does not support Rerank (Score) API',
				code: 'model_not_supported',
			});
		}
		const chatted = await chat(service(), keys.rag, { model: 'rerank-1', messages: hello });
		expect(chatted.status).toBe(400);
		expect(chatted.json.error.message).toBe(
			'The model `rerank-1` is a rerank model and does not support chat completions: use /v1/rerank',
		);
		const embedded = await embed(service(), keys.rag, { model: 'rerank-1', input: 'a' });
		expect(embedded.json.error.message).toBe(
			'You are not allowed to generate embeddings from this model',
		);
	});

	it('is 404 for an unknown model, 403 outside the key group, 401 for a bad key', async () => {
		const unknown = await ranks({ model: 'rerank-9' });
		expect(unknown.status).toBe(404);
		expect(unknown.json.error.code).toBe('model_not_found');
		const outside = await rerank(service(), keys.default, { model: 'rerank-1', query, documents });
		expect(outside.status).toBe(403);
		expect(outside.json.error.code).toBe('model_not_found');
		const badKey = await rerank(service(), 'sk-wrong-key-0000', {
			model: 'rerank-1',
			query,
			documents,
		});
		expect(badKey.status).toBe(401);
	});

	it.each([
		['fault-503-one-api-no-channel', 503, /无可用渠道/, keys.faults],
		['fault-503-new-api-no-channel', 503, /^No available channel for model/, keys.faults],
		['fault-500', 500, /^Internal server error$/, keys.faults],
		['fault-429-wait', 429, /Please try again in 30s/, keys.fallback],
	])('a fault model (%s) answers as it does to chat', async (model, status, message, key) => {
		const reply = await rerank(service(), key, { model, query, documents });
		expect(reply.status).toBe(status);
		expect(reply.json.error.message).toMatch(message);
		if (status === 429) expect(reply.headers.get('retry-after')).toBe('30');
	});

	it('is recorded in the request log, body as sent', async () => {
		await ranks({ top_n: 1 });
		const [request] = await service().requests();
		expect(request).toMatchObject({ method: 'POST', path: '/v1/rerank' });
		expect(request.body).toEqual({ model: 'rerank-1', query, documents, top_n: 1 });
		expect(request.headers.authorization).toBe(`Bearer ${keys.rag}`);
	});

	it("is under the key's rate limit like chat and embeddings", async () => {
		await withService(['--rate-limit', 'rag=2/60s'], async (limited) => {
			const body = { model: 'rerank-1', query, documents };
			expect((await embed(limited, keys.rag, { model: 'embed-1', input: 'a' })).status).toBe(200);
			expect((await rerank(limited, keys.rag, body)).status).toBe(200);
			const refused = await rerank(limited, keys.rag, body);
			expect(refused.status).toBe(429);
			expect(refused.json.error.code).toBe('rate_limit_exceeded');
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
			expect((await limited.traffic()).rag).toMatchObject({ admitted: 2, rejected: 1 });
		});
	});
});

describe('rerank knobs', () => {
	const knobbed = (x_local: Record<string, unknown>, body: Record<string, unknown> = {}) =>
		ranks({ ...body, x_local });

	it('shuffled: the same results worst first, each with its own index', async () => {
		expect((await knobbed({ shuffled: true })).json.results).toEqual([...expected].reverse());
		expect((await knobbed({ shuffled: true }, { top_n: 2 })).json.results).toEqual([
			expected[1],
			expected[0],
		]);
	});

	it('ignore_top_n: every document, whatever top_n asked', async () => {
		expect((await knobbed({ ignore_top_n: true }, { top_n: 1 })).json.results).toEqual(expected);
	});

	it.each([
		['index_out_of_range', [...expected.slice(0, 3), { index: 4, relevance_score: 0 }]],
		['index_twice', [...expected, expected[0]]],
		['no_score', [...expected.slice(0, 3), { index: 0 }]],
		['text_score', [{ index: 1, relevance_score: '1' }, ...expected.slice(1)]],
	])('bad_reply %s', async (badReply, results) => {
		const reply = await knobbed({ bad_reply: badReply });
		expect(reply.status).toBe(200);
		expect(reply.json.results).toEqual(results);
	});

	it('bad_reply no_results: the results under data; html: a web page with status 200', async () => {
		const noResults = await knobbed({ bad_reply: 'no_results' });
		expect(noResults.json).not.toHaveProperty('results');
		expect(noResults.json.data).toEqual(expected);
		const page = await knobbed({ bad_reply: 'html' });
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		expect(page.text).toMatch(/^<!DOCTYPE html>[\s\S]*<title>Gateway console<\/title>/);
	});

	it("no_rerank: a 404 as from a service without /rerank (nginx's page, or this service's own JSON)", async () => {
		const html = await knobbed({ no_rerank: 'html' });
		expect(html.status).toBe(404);
		expect(html.text).toMatch(/<title>404 Not Found<\/title>[\s\S]*nginx/);
		const json = await knobbed({ no_rerank: 'json' });
		expect(json.status).toBe(404);
		expect(json.json.error).toMatchObject({
			message: 'Invalid URL (POST /v1/rerank)',
			code: 'not_found',
		});
	});

	it('fail_first: 429 with Retry-After, or a 5xx, then the ranking', async () => {
		const failFirst = { id: 'rerank-429', count: 1, status: 429, retry_after: '0.2' };
		const first = await knobbed({ fail_first: failFirst });
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('0.2');
		expect((await knobbed({ fail_first: failFirst })).json.results).toEqual(expected);
		const serverFailure = await knobbed({
			fail_first: { id: 'rerank-502', count: 1, status: 502 },
		});
		expect(serverFailure.status).toBe(502);
	});

	it('for_query: the knobs shape only a request whose query contains the text', async () => {
		const other = await knobbed({ for_query: 'Germany', no_rerank: 'html' });
		expect(other.status).toBe(200);
		const chosen = await knobbed({ for_query: 'France', no_rerank: 'html' });
		expect(chosen.status).toBe(404);
	});

	it('refuses an unknown knob, and an unknown bad_reply', async () => {
		expectInvalidRequest(await knobbed({ shufled: true }), 'x_local', /unknown field shufled/);
		expectInvalidRequest(
			await knobbed({ bad_reply: 'nan' }),
			'x_local.bad_reply',
			/must be one of/,
		);
	});
});
