/**
 * The Chat Completions Reranker node through n8n's engine, as n8n's vector stores call it, against the local
 * service: the documents best first with the service's scores, Top N and Minimum Score also where the service
 * ignores them, n8n's log of each search, and each failure as an n8n error in words that say what to do.
 */
import { runReranker } from './reranker-probe.cts';
import type { Reranker, StoreDocument } from './reranker-probe.cts';
import { knobs } from '../support/knobs.cts';
import { faultModels, keys, startService, useLocalService } from '../support/service.cts';

const service = useLocalService();

const QUERY = 'capital of France';
const texts = [
	'The cat sat on the mat',
	'Paris is the capital of France',
	'Berlin is the capital of Germany',
	'France has a coast',
	'Lyon is a city of France',
];
const storeDocuments = (): StoreDocument[] =>
	texts.map((pageContent, at) => ({ pageContent, metadata: { at, source: 'notes' } }));

/** The service's own ranking of the documents for the query (asked directly, then forgotten by the log). */
async function serviceRanking(documents = texts): Promise<Array<{ index: number; score: number }>> {
	const response = await fetch(`${service().baseUrl}/rerank`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${keys.rag}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ model: 'rerank-1', query: QUERY, documents }),
	});
	const { results } = (await response.json()) as {
		results: Array<{ index: number; relevance_score: number }>;
	};
	await service().clearRequests();
	return results.map(({ index, relevance_score }) => ({ index, score: relevance_score }));
}

/** What a vector store gets back: each document's text, where it came from, and its score. */
const shown = (documents: unknown) =>
	(documents as StoreDocument[]).map(({ pageContent, metadata }) => ({
		pageContent,
		at: metadata.at,
		score: metadata.relevanceScore,
	}));

const expected = (ranking: Array<{ index: number; score: number }>) =>
	ranking.map(({ index, score }) => ({ pageContent: texts[index], at: index, score }));

const search =
	(documents: StoreDocument[] = storeDocuments(), query = QUERY) =>
	async (reranker: Reranker) => ({
		documents: await reranker.compressDocuments(documents, query),
		given: documents,
	});

const rerank = (options = {}, script = search(), model = 'rerank-1', apiKey = keys.rag) =>
	runReranker({ apiKey, baseUrl: service().baseUrl, model, options, script });

test("gives the documents best first with the service's scores, in one request, and logs the search", async () => {
	const ranking = await serviceRanking();
	const run = await rerank();
	expect(run.error).toBeUndefined();
	expect(shown(run.output?.documents)).toEqual(expected(ranking));
	// Every other field of a document is kept; the store's own documents are not written to.
	expect((run.output?.documents as StoreDocument[])[0].metadata.source).toBe('notes');
	expect(run.output?.given).toEqual(storeDocuments());
	const requests = await service().requests();
	expect(requests.map((request) => request.path)).toEqual(['/v1/rerank']);
	expect(requests[0].body).toEqual({
		model: 'rerank-1',
		query: QUERY,
		documents: texts,
		top_n: texts.length,
	});
	expect(run.log).toHaveLength(1);
	expect(run.log[0].input).toEqual({ query: QUERY, documents: storeDocuments() });
	expect(run.log[0].output).toEqual({
		response: run.output?.documents,
		tokenUsage: expect.objectContaining({ completionTokens: 0 }),
	});
});

test('Top N asks for that many and keeps that many, also from a service that ignores top_n and does not sort', async () => {
	const ranking = await serviceRanking();
	for (const xLocal of [{}, { ignore_top_n: true, shuffled: true }]) {
		await service().clearRequests();
		const run = await rerank({ topN: 2, ...knobs(xLocal).options });
		expect(shown(run.output?.documents)).toEqual(expected(ranking.slice(0, 2)));
		const [request] = await service().requests();
		expect(request.body).toMatchObject({ top_n: 2 });
	}
});

test('Top N from an expression that finds nothing: an error naming the option and the field, nothing sent', async () => {
	const run = await runReranker({
		apiKey: keys.rag,
		baseUrl: service().baseUrl,
		options: { topN: '={{ $json.keep }}' },
		script: search(),
		store: { items: [{ json: { question: QUERY } }] },
	});
	expect(run.error?.message).toMatch(
		/Top N: is empty because its expression \{\{ \$json\.keep \}\} finds no field "keep" in the input item/,
	);
	expect(await service().requests()).toHaveLength(0);
	// The expression that finds a value is taken.
	const found = await runReranker({
		apiKey: keys.rag,
		baseUrl: service().baseUrl,
		options: { topN: '={{ $json.keep }}' },
		script: search(),
		store: { items: [{ json: { question: QUERY, keep: 2 } }] },
	});
	expect(found.error).toBeUndefined();
	expect(found.output?.documents).toHaveLength(2);
});

test('Minimum Score leaves out the documents scored below it, even under Top N', async () => {
	const ranking = await serviceRanking();
	const run = await rerank({ topN: 4, minScore: 0.5 });
	const kept = ranking.filter(({ score }) => score >= 0.5);
	expect(kept.length).toBeGreaterThan(0);
	expect(kept.length).toBeLessThan(4);
	expect(shown(run.output?.documents)).toEqual(expected(kept));
});

test('no documents: none back, and nothing is sent', async () => {
	const run = await rerank({}, search([]));
	expect(run.output?.documents).toEqual([]);
	expect(await service().requests()).toEqual([]);
});

test('more than 1,000 documents go in two requests at once, and the best of all come first', async () => {
	const many = Array.from({ length: 1500 }, (_, at) => ({
		pageContent: at % 500 === 7 ? `France ${at}` : `note ${at}`,
		metadata: { at },
	}));
	const run = await rerank({ topN: 3 }, search(many, 'France'));
	expect(run.error).toBeUndefined();
	const best = run.output?.documents as StoreDocument[];
	expect(best.map(({ metadata }) => metadata.at)).toEqual([7, 507, 1007]);
	const requests = await service().requests();
	expect(
		requests.map((request) => (request.body as { documents: string[] }).documents.length),
	).toEqual(expect.arrayContaining([1000, 500]));
});

test.each([
	['index_twice', 'sent two scores for document 2 (index 1)'],
	['no_score', 'sent result 5 (document 1) without a relevance_score'],
	['html', 'answered 200 with an HTML page instead of a list of results'],
])(
	'a reply it cannot trust (%s) is an error naming the model, never a wrong list',
	async (knob, said) => {
		const run = await rerank(knobs({ bad_reply: knob }).options);
		expect(run.output).toBeUndefined();
		expect(run.error?.message).toContain(`The rerank model "rerank-1" ${said}`);
		expect(run.error?.description).toMatch(/^No order of this reply is used/);
		expect(run.log[0].error?.message).toBe(run.error?.message);
		expect(await service().requests()).toHaveLength(1);
	},
);

test.each([
	[
		'a chat model',
		keys.rag,
		'echo-1',
		'Model "echo-1" cannot rerank: it is not a rerank model',
		/Choose a rerank model in the Model field/,
	],
	[
		'a wrong key',
		keys.expired,
		'rerank-1',
		'The service rejected the API key',
		/\(HTTP 401, type invalid_request_error, code invalid_api_key\)\. Open the credential/,
	],
	[
		"a model outside the key's group",
		keys.default,
		'rerank-1',
		'Model "rerank-1" is not available to this API key',
		/^The service answered "The model `rerank-1` is not available to your token group `default`" \(HTTP 403, type invalid_request_error, code model_not_found\)\. Pick the model from the list/,
	],
	[
		'a model that does not exist',
		keys.rag,
		'rerank-9',
		'Model "rerank-9" does not exist on this service',
		/HTTP 404/,
	],
	[
		'a gateway without a channel',
		keys.fallback,
		'fault-503-one-api-no-channel',
		`Model "fault-503-one-api-no-channel" is not available to this API key's group: the gateway has no channel for it`,
		/HTTP 503/,
	],
])(
	'%s: one request, never retried, an n8n error with the fix',
	async (_name, apiKey, model, message, description) => {
		expect(faultModels).toContain('fault-503-one-api-no-channel');
		const run = await rerank({}, search(), model, apiKey);
		expect(run.error?.message).toBe(message);
		expect(run.error?.description).toMatch(description);
		// The sub-node's own: n8n names it as the node to open.
		expect(run.error?.functionality).toBe('configuration-node');
		expect((await service().requests()).map((request) => request.path)).toEqual(['/v1/rerank']);
	},
);

test.each(['html', 'json'])(
	'a service without /rerank (%s 404) says to check the Base URL',
	async (page) => {
		const run = await rerank(knobs({ no_rerank: page }).options);
		expect(run.error?.message).toBe(
			`The service at "${service().baseUrl}" has no rerank endpoint: POST ${service().baseUrl}/rerank answered 404`,
		);
		expect(run.error?.description).toMatch(/Check the Base URL in the credential/);
	},
);

test.each([
	['a 500', { fail_first: { id: 'r500', count: 2, status: 500 } }, 3],
	[
		'a 429 asking to wait',
		{ fail_first: { id: 'r429', count: 1, status: 429, retry_after: '1' } },
		2,
	],
])('%s is retried, and the search succeeds', async (_name, xLocal, requests) => {
	const ranking = await serviceRanking();
	const run = await rerank({ maxRetryWait: 5000, ...knobs(xLocal).options });
	expect(run.error).toBeUndefined();
	expect(shown(run.output?.documents)).toEqual(expected(ranking));
	expect(await service().requests()).toHaveLength(requests);
});

test('Max Retries 0: a 503 fails at once, with the attempts counted', async () => {
	const run = await rerank({
		maxRetries: 0,
		...knobs({ fail_first: { id: 'r503', count: 1, status: 503 } }).options,
	});
	expect(run.error?.message).toMatch(/503|overloaded|unavailable/i);
	expect(await service().requests()).toHaveLength(1);
});

test('a reply slower than Timeout fails saying it was the timeout', async () => {
	const slow = await startService({ args: ['--latency-ms', '1500'] });
	try {
		const run = await runReranker({
			apiKey: keys.rag,
			baseUrl: slow.baseUrl,
			options: { timeout: 300, maxRetries: 0 },
			script: search(),
		});
		expect(run.error?.message).toMatch(/300 ms|timed out|Timeout/i);
		expect(run.error?.description).toMatch(/Timeout/);
	} finally {
		await slow.stop();
	}
});

test('an empty query is a clear error, and nothing is sent', async () => {
	const run = await rerank({}, search(storeDocuments(), ''));
	expect(run.error?.message).toBe('The query to search by: is empty');
	expect(await service().requests()).toEqual([]);
});

test("a search whose Prompt names a field the item lacks: the query's error says so, and nothing is sent", async () => {
	const run = await runReranker({
		apiKey: keys.rag,
		baseUrl: service().baseUrl,
		store: { prompt: '={{ $json.q }}', items: [{ json: { question: QUERY } }] },
		script: async (reranker, prompt) => ({
			documents: await reranker.compressDocuments(storeDocuments(), prompt(0) as string),
		}),
	});
	expect(run.error?.message).toBe(
		'The query to search by: is empty because its expression {{ $json.q }} finds no field "q" in the input item',
	);
	expect(await service().requests()).toEqual([]);
});

test.each([
	['top_n', 'Options > Top N sets'],
	['model', 'the Model field sets'],
	['query', 'the search sets'],
	['documents', "the vector store's documents set"],
])(
	'Extra Body may not set %s: the search fails naming who sets it, and nothing is sent',
	async (field, setBy) => {
		const run = await rerank({ topN: 2, extraBody: JSON.stringify({ [field]: 1 }) });
		expect(run.output).toBeUndefined();
		expect(run.error?.message).toBe(`Extra Body: sets "${field}", which ${setBy}`);
		expect(await service().requests()).toEqual([]);
	},
);

test('with more than 1,000 documents each reply is checked against the documents of its own request', async () => {
	const many = Array.from({ length: 1500 }, (_, at) => ({
		pageContent: `note ${at}`,
		metadata: { at },
	}));
	const run = await rerank(
		knobs({ bad_reply: 'index_out_of_range' }).options,
		search(many, 'France'),
	);
	expect(run.output).toBeUndefined();
	expect(run.error?.message).toMatch(
		/^The rerank model "rerank-1" sent a score for index (1000|500), but only \1 documents were sent/,
	);
});

test('a Base URL without its version segment: a 404 at /rerank says to add /v1', async () => {
	const root = service().baseUrl.replace(/\/v1$/, '');
	const run = await runReranker({ apiKey: keys.rag, baseUrl: root, script: search() });
	expect(run.error?.message).toBe(
		`The Base URL "${root}" lacks the version segment /v1, so the service answered 404`,
	);
	expect(run.error?.description).toMatch(/add \/v1 to the Base URL/);
});
