/**
 * The Chat Completions Reranker in a real n8n with the packed package installed as n8n installs it: documents
 * inserted with the Embeddings node into a Simple Vector Store come back in the local service's ranking (its
 * scores, asked of its /v1/rerank directly) through the store's Get Many with Rerank Results (Top N, Minimum
 * Score, Top N unset), as an AI Agent's tool, and through the Vector Store Retriever in the Question and Answer
 * Chain; a shuffled reply, a reply it cannot trust and a chat model chosen as reranker; the sub-node's log.
 */
import { localRagCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { rerank } from '../dev/service/client.cts';
import { keys, useLocalService } from '../support/service.cts';
import type { RecordedRequest } from '../support/service.cts';
import type { SubNodeSetup } from './embeddings-workflows.cts';
import { insertWorkflow, searchWorkflow } from './embeddings-workflows.cts';
import {
	rerankedRetrieverWorkflow,
	rerankedSearchWorkflow,
	rerankedToolWorkflow,
} from './reranker-workflows.cts';
import type { RerankedAiWorkflow } from './reranker-workflows.cts';

const service = useLocalService();
const STORE = 'rerank-handbook';

const HANDBOOK = [
	'Each year employees get 30 days of paid holidays for rest, booked in the holiday calendar of their team and approved by a manager before the month starts.',
	'Paid holidays each year.',
	'Parking for employees opens at seven.',
	'Laptops are replaced every three years by IT, who keep old ones for spare parts.',
	'The canteen serves lunch from noon.',
];
const QUESTION = 'paid holidays for employees each year';

let credential: ReturnType<typeof localRagCredential>;
const embeddings = (): SubNodeSetup => ({ credential, model: 'embed-1' });
const reranked = (options: Record<string, unknown>, model = 'rerank-1') => ({
	embeddings: embeddings(),
	reranker: { credential, model, options },
});
const xLocal = (knobs: Record<string, unknown>) => ({
	extraBody: JSON.stringify({ x_local: knobs }),
});

/** Get Many with the user's settings: `[path, what it shows, the store's Limit, the Reranker's Options]`. */
const SETTINGS: Array<[string, string, number, { topN?: number; minScore?: number }]> = [
	['rerank-top-2', 'Top N 2: the two best', HANDBOOK.length, { topN: 2 }],
	['rerank-min-score', 'Minimum Score 0.3: none below it', HANDBOOK.length, { minScore: 0.3 }],
	['rerank-all', 'Top N not added: every document the store fetched', 4, {}],
];

/** Get Many workflows: `[path, the Reranker's Options, its model]`. */
const SEARCHES: Array<[string, Record<string, unknown>, string?]> = [
	...SETTINGS.map(([path, , , options]): [string, Record<string, unknown>] => [path, options]),
	['rerank-shuffled', xLocal({ shuffled: true })],
	['rerank-index-twice', xLocal({ bad_reply: 'index_twice' })],
	['rerank-chat-model', {}, 'echo-1'],
];

/** An AI node on `path` with the Chat Model asking `model`; its store fetches every document, the Reranker keeps 3. */
const aiWorkflow = (path: string, model: string): RerankedAiWorkflow => ({
	path,
	key: STORE,
	topK: HANDBOOK.length,
	model: { credential, model },
	setup: reranked({ topN: 3 }),
});

const n8n = useRealN8n(() => {
	credential = localRagCredential(keys.rag, service().baseUrl);
	return {
		credentials: [credential],
		workflows: [
			insertWorkflow('rerank-insert', STORE, embeddings()),
			searchWorkflow('rerank-plain', STORE, embeddings()),
			...SEARCHES.map(([path, options, model]) =>
				rerankedSearchWorkflow(path, STORE, reranked(options, model)),
			),
			rerankedToolWorkflow(aiWorkflow('rerank-tool', 'tools-1')),
			rerankedRetrieverWorkflow(aiWorkflow('rerank-qa', 'echo-1')),
		],
	};
});

/** What a webhook answered: every item of the last node. */
const items = async (path: string, body: unknown) =>
	(await n8n().answer(path, body)) as unknown as Array<Record<string, unknown>>;

let rest: N8nRest;
beforeAll(async () => {
	rest = await N8nRest.login(n8n().url, OWNER);
	await items('rerank-insert', { documents: HANDBOOK.map((text) => ({ text })) });
});

interface Scored {
	pageContent: string;
	score: number;
}

const pageContents = (documents: ReadonlyArray<{ pageContent: string }>) =>
	documents.map((document) => document.pageContent);

/** The text of a Get Many item's document. */
const textOf = (item: Record<string, unknown>) =>
	(item.document as { pageContent: string }).pageContent;

/** The documents the store fetches for `question` without a reranker, in its order (nearest first). */
async function storeOrder(question: string, topK: number): Promise<string[]> {
	const found = await items('rerank-plain', { question, topK });
	return found.map(textOf);
}

/**
 * What the local service's rerank-1 answers for `documents` asked directly: every document best first with its
 * `relevance_score`, in the order the service sent them, and the tokens it counted.
 */
async function serviceRanking(
	query: string,
	documents: string[],
	x_local?: Record<string, unknown>,
): Promise<{ ranked: Scored[]; tokens: number }> {
	const reply = await rerank(service(), keys.rag, {
		model: 'rerank-1',
		query,
		documents,
		...(x_local ? { x_local } : {}),
	});
	expect(reply.status).toBe(200);
	const results = reply.json.results as Array<{ index: number; relevance_score: number }>;
	return {
		ranked: results.map(({ index, relevance_score }) => ({
			pageContent: documents[index],
			score: relevance_score,
		})),
		tokens: reply.json.usage.total_tokens,
	};
}

/** The store's documents for `question` and the service's ranking of them, which must not be the store's order. */
async function fetchedAndRanked(question: string, topK: number) {
	const fetched = await storeOrder(question, topK);
	const ranking = await serviceRanking(question, fetched);
	// Else a reranker that changed nothing would pass.
	expect(pageContents(ranking.ranked)).not.toEqual(fetched);
	return { fetched, ...ranking };
}

/** The requests the service received at `path`, their bodies of type `T`. */
async function requestsTo<T>(path: string): Promise<Array<RecordedRequest & { body: T }>> {
	const requests = await service().requests();
	return requests.filter((request) => request.path === path) as Array<
		RecordedRequest & { body: T }
	>;
}

const rerankRequests = () => requestsTo<{ query: string }>('/v1/rerank');

/** The documents and scores of Get Many's items. */
const scoredItems = (found: Array<Record<string, unknown>>): Scored[] =>
	found.map((item) => ({ pageContent: textOf(item), score: item.score as number }));

describe("Get Many with Rerank Results: the store's documents in the service's ranking, each score the service's", () => {
	test.each(SETTINGS)('%s: %s', async (path, _what, topK, { topN, minScore }) => {
		const found = await items(path, { questions: [{ question: QUESTION, topK }] });
		const requests = await rerankRequests();
		const { fetched, ranked } = await fetchedAndRanked(QUESTION, topK);
		expect(fetched).toHaveLength(topK);
		const expected = ranked
			.filter(({ score }) => minScore === undefined || score >= minScore)
			.slice(0, topN);
		// Top N and Minimum Score as set here leave out some of the fetched documents, and keep several.
		if (topN !== undefined || minScore !== undefined) {
			expect(expected.length).toBeLessThan(topK);
			expect(expected.length).toBeGreaterThan(1);
		}
		expect(scoredItems(found)).toEqual(expected);
		// One request, with the documents the store fetched, in its order.
		expect(requests.map((request) => request.body)).toEqual([
			{ model: 'rerank-1', query: QUESTION, documents: fetched, top_n: topN ?? topK },
		]);
	});

	test('a reply with the results worst first still gives the best first', async () => {
		const found = await items('rerank-shuffled', {
			questions: [{ question: QUESTION, topK: HANDBOOK.length }],
		});
		const { fetched, ranked } = await fetchedAndRanked(QUESTION, HANDBOOK.length);
		const shuffled = await serviceRanking(QUESTION, fetched, { shuffled: true });
		expect(shuffled.ranked).toEqual([...ranked].reverse());
		expect(scoredItems(found)).toEqual(ranked);
	});

	test("each search is an entry of the Reranker's log: query and documents in, the documents with their scores out", async () => {
		const questions = [QUESTION, 'laptops replaced every three years'];
		await items('rerank-top-2', {
			questions: questions.map((question) => ({ question, topK: HANDBOOK.length })),
		});
		const log = (await rest.lastRunData('e2e-rerank-top-2')).Reranker;
		expect(log).toHaveLength(questions.length);
		for (const [at, question] of questions.entries()) {
			const fetched = await storeOrder(question, HANDBOOK.length);
			const { ranked, tokens } = await serviceRanking(question, fetched);
			const input = log[at].inputOverride?.ai_reranker[0][0].json as {
				query: string;
				documents: Array<{ pageContent: string }>;
			};
			expect(input.query).toBe(question);
			expect(pageContents(input.documents)).toEqual(fetched);
			const output = log[at].data?.ai_reranker[0][0].json as {
				response: Array<{ pageContent: string; metadata: { relevanceScore: number } }>;
			};
			expect(
				output.response.map(({ pageContent, metadata }) => ({
					pageContent,
					score: metadata.relevanceScore,
				})),
			).toEqual(ranked.slice(0, 2));
			expect(output).toMatchObject({
				tokenUsage: { promptTokens: tokens, completionTokens: 0, totalTokens: tokens },
			});
		}
	});
});

describe('a search that cannot be reranked fails with the Reranker’s words, on the store and in the Reranker’s log', () => {
	/** The error that ended the workflow's newest execution, and the Reranker's log entry of it. */
	async function failure(path: string) {
		const response = await n8n().webhook(path, {
			questions: [{ question: QUESTION, topK: HANDBOOK.length }],
		});
		expect(response.status).toBe(500);
		const error = await rest.lastError(`e2e-${path}`);
		const [entry] = (await rest.lastRunData(`e2e-${path}`)).Reranker;
		expect(entry.error?.message).toBe(error?.message);
		return error;
	}

	test('a reply that scores a document twice names the model and the document; no order of it is used', async () => {
		const error = await failure('rerank-index-twice');
		expect(await rerankRequests()).toHaveLength(1);
		const fetched = await storeOrder(QUESTION, HANDBOOK.length);
		const [best] = (await serviceRanking(QUESTION, fetched)).ranked;
		const index = fetched.indexOf(best.pageContent);
		expect(error?.message).not.toBe('The resource you are requesting could not be found');
		expect(error?.message).toBe(
			`The rerank model "rerank-1" sent two scores for document ${index + 1} (index ${index})`,
		);
		expect(error?.description).toContain('No order of this reply is used');
	});

	test('a chat model chosen as reranker: choose a rerank model', async () => {
		const error = await failure('rerank-chat-model');
		expect(error?.message).toBe('Model "echo-1" cannot rerank: it is not a rerank model');
		expect(error?.description).toContain('Choose a rerank model in the Model field');
		expect(await rerankRequests()).toHaveLength(1);
	});
});

describe('beyond Get Many', () => {
	const question = 'How many paid holidays do employees get each year?';

	test("Retrieve Documents as the AI Agent's tool: the agent gets the Top N documents in the service's ranking", async () => {
		const reply = (await n8n().answer('rerank-tool', { question })) as { output: string };
		const [request] = await rerankRequests();
		// tools-1 searches with the whole question (it has no capitalised word within a sentence).
		expect(request.body.query).toBe(question);
		const { ranked } = await fetchedAndRanked(question, HANDBOOK.length);
		expect(reply.output).toMatch(/^Based on the tools: Handbook\(/);
		// The tool's answer holds the three best, best first, and not the other two.
		const places = pageContents(ranked).map((text) => reply.output.indexOf(text));
		expect(places.slice(3)).toEqual([-1, -1]);
		expect(places[0]).toBeGreaterThan(0);
		expect(places.slice(0, 3)).toEqual([...places.slice(0, 3)].sort((a, b) => a - b));
	});

	test('the Vector Store Retriever in the Question and Answer Chain: the model gets the Top N documents in the service’s ranking', async () => {
		await n8n().answer('rerank-qa', { question });
		const chat = await requestsTo<{ messages: Array<{ role: string; content: string }> }>(
			'/v1/chat/completions',
		);
		const { ranked } = await fetchedAndRanked(question, HANDBOOK.length);
		expect(chat).toHaveLength(1);
		const [system] = chat[0].body.messages;
		expect(system.role).toBe('system');
		// The chain's system message ends with the documents it got, one after another.
		expect(system.content.slice(system.content.indexOf('Context: '))).toBe(
			`Context: ${pageContents(ranked.slice(0, 3)).join('\n\n')}`,
		);
	});
});
