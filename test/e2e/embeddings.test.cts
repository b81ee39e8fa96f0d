/**
 * The Chat Completions Embeddings node in a real n8n with the packed package installed as n8n installs it:
 * documents through n8n's Default Data Loader and Recursive Character Text Splitter into a Simple Vector
 * Store, a search of it with the same sub-node, the RAG example (the store as an AI Agent tool with the
 * Chat Completions Chat Model, reranked by the Chat Completions Reranker, one key for all three), the tokens in n8n's log of the sub-node, each fault of the
 * local service, and a 1,000-chunk insert that loses no chunk.
 */
import { exampleBehindWebhook } from '../../dev/n8n/workflows.cts';
import { localRagCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { keys, useLocalService } from '../support/service.cts';
import type { RecordedRequest } from '../support/service.cts';
import type { SubNodeSetup } from './embeddings-workflows.cts';
import { insertWorkflow, searchWorkflow } from './embeddings-workflows.cts';

const service = useLocalService();
const outsideGroup = { id: 'default-key', name: 'Default key', type: 'chatCompletionsApi' };

const HANDBOOK = [
	'Holidays: every employee gets 30 days of paid holidays each year.',
	'Parking: the office garage opens at 7:00 and closes at 22:00.',
	'Laptops: every engineer receives a new laptop every three years.',
];

const xLocal = (knobs: Record<string, unknown>) => ({
	extraBody: JSON.stringify({ x_local: knobs }),
});

let credential: ReturnType<typeof localRagCredential>;
const setup = (model: string, options?: Record<string, unknown>): SubNodeSetup => ({
	credential,
	model,
	options,
});

/** Each fault of the local service, as an insert workflow of its own: `[path, embeddings]`. */
const FAULTS: Array<[string, () => SubNodeSetup]> = [
	[
		'insert-429',
		() =>
			setup(
				'embed-1',
				xLocal({ fail_first: { id: 'e2e-429', count: 1, status: 429, retry_after: '0.5' } }),
			),
	],
	[
		'insert-500',
		() => setup('embed-1', xLocal({ fail_first: { id: 'e2e-500', count: 1, status: 500 } })),
	],
	['insert-shuffled', () => setup('embed-1', { batchSize: 2, ...xLocal({ shuffled: true }) })],
	['insert-wrong-count', () => setup('embed-1', xLocal({ drop_last: true }))],
	['insert-chat-model', () => setup('echo-1')],
	['insert-outside-group', () => ({ credential: outsideGroup, model: 'embed-1' })],
];

const n8n = useRealN8n(() => {
	credential = localRagCredential(keys.rag, service().baseUrl);
	return {
		credentials: [
			credential,
			{ ...outsideGroup, data: { apiKey: keys.default, baseUrl: service().baseUrl } },
		],
		workflows: [
			exampleBehindWebhook('rag', service().origin),
			insertWorkflow('insert', 'handbook', setup('embed-1')),
			searchWorkflow('search', 'handbook', setup('embed-1')),
			// n8n's Clear Store clears before each batch of 200 documents: it would keep only the last 200.
			insertWorkflow('insert-many', 'archive', setup('embed-1'), { clearStore: false }),
			searchWorkflow('search-many', 'archive', setup('embed-1')),
			...FAULTS.map(([path, embeddings]) => insertWorkflow(path, path, embeddings())),
			searchWorkflow('search-shuffled', 'insert-shuffled', setup('embed-1')),
		],
	};
});

let rest: N8nRest;
beforeAll(async () => {
	rest = await N8nRest.login(n8n().url, OWNER);
});

/** What a webhook answered: every item of the last node. */
const items = async (path: string, body: unknown) =>
	(await n8n().answer(path, body)) as unknown as Array<Record<string, unknown>>;

async function embeddingsRequests(): Promise<
	Array<RecordedRequest & { body: { input: string[] } }>
> {
	return (await service().requests()).filter(
		(request) => request.path === '/v1/embeddings',
	) as Array<RecordedRequest & { body: { input: string[] } }>;
}

const pageContent = (item: Record<string, unknown>) =>
	(item.document as { pageContent: string }).pageContent;

test('documents into a Simple Vector Store, then a search with the same sub-node finds the right one', async () => {
	const inserted = await items('insert', { documents: HANDBOOK.map((text) => ({ text })) });
	expect(inserted.map((item) => item.pageContent)).toEqual(HANDBOOK);
	const [insert] = await embeddingsRequests();
	expect(insert.body).toEqual({ model: 'embed-1', input: HANDBOOK, encoding_format: 'float' });
	await service().clearRequests();

	const found = await items('search', { question: 'How many days of holidays do employees get?' });
	expect(found.map(pageContent)).toEqual([HANDBOOK[0]]);
	expect((await embeddingsRequests()).map((request) => request.body.input)).toEqual([
		['How many days of holidays do employees get?'],
	]);
	// n8n's log of the sub-node: the query in, the vector and the tokens it used out.
	const [run] = (await rest.lastRunData('e2e-search')).Embeddings;
	expect(run.data?.ai_embedding[0][0].json).toEqual({
		response: expect.any(Array),
		tokenUsage: { promptTokens: 8, completionTokens: 0, totalTokens: 8 },
	});
});

test('the RAG example: documents in, and the AI Agent answers from the store, reranked, with the Chat Model', async () => {
	const reply = (await n8n().answer('rag', {})) as { output: string };
	expect(reply.output).toMatch(/^Based on the tools: Handbook\(/);
	expect(reply.output).toContain('every employee gets 30 days of paid holidays');
	expect(reply.output).not.toContain('Parking');
	const requests = await service().requests();
	expect(requests.map((request) => request.path)).toEqual([
		'/v1/embeddings',
		'/v1/chat/completions',
		'/v1/embeddings',
		'/v1/rerank',
		'/v1/chat/completions',
	]);
	const [, query] = await embeddingsRequests();
	expect(query.body.input).toEqual(['Holidays']);
	// The store fetched its four documents (Limit 4), the Reranker kept the best one (Top N 1).
	expect(requests[3].body).toMatchObject({ query: 'Holidays', top_n: 1 });
	expect((requests[3].body as { documents: string[] }).documents).toHaveLength(4);
});

test.each([
	['insert-429', 'a 429 is waited out', 2],
	['insert-500', 'a 500 is retried', 2],
])('%s: %s, and every document is in the store', async (path, _what, requests) => {
	const inserted = await items(path, { documents: HANDBOOK.map((text) => ({ text })) });
	expect(inserted.map((item) => item.pageContent)).toEqual(HANDBOOK);
	expect(await embeddingsRequests()).toHaveLength(requests);
});

test('a reply in another order still puts each vector with its text', async () => {
	await items('insert-shuffled', { documents: HANDBOOK.map((text) => ({ text })) });
	expect((await embeddingsRequests()).map((request) => request.body.input)).toEqual([
		HANDBOOK.slice(0, 2),
		HANDBOOK.slice(2),
	]);
	for (const text of HANDBOOK) {
		const [found] = await items('search-shuffled', { question: text });
		expect(pageContent(found)).toBe(text);
	}
});

test.each([
	['insert-wrong-count', 'The embedding model "embed-1" answered 2 vectors for 3 texts'],
	['insert-chat-model', 'Model "echo-1" cannot embed: it is not an embedding model'],
	['insert-outside-group', 'Model "embed-1" is not available to this API key'],
])('%s: the store fails with the sub-node’s words, after one request', async (path, message) => {
	const response = await n8n().webhook(path, { documents: HANDBOOK.map((text) => ({ text })) });
	expect(response.status).toBe(500);
	expect((await rest.lastError(`e2e-${path}`))?.message).toBe(message);
	expect(await embeddingsRequests()).toHaveLength(1);
});

test('a 1,000-chunk insert loses no chunk: every chunk sent once, all in the store, each found again', async () => {
	const inserted = await items('insert-many', { count: 1000 });
	expect(inserted).toHaveLength(1000);
	const requests = await embeddingsRequests();
	const sent = requests.flatMap((request) => request.body.input);
	expect(sent).toHaveLength(1000);
	expect(new Set(sent).size).toBe(1000);
	// n8n's store hands over 200 documents at a time, in batches of 32 (the default Batch Size).
	expect(requests.map((request) => request.body.input.length)).toEqual(
		Array.from({ length: 5 }, () => [...Array(6).fill(32), 8]).flat(),
	);
	const all = await items('search-many', { question: 'Chunk of the archive', topK: 1000 });
	expect(new Set(all.map(pageContent)).size).toBe(1000);
	const [found] = await items('search-many', { question: 'word517 term3619' });
	expect(pageContent(found)).toBe('Chunk 517 of the archive, word517 and term3619');
});
