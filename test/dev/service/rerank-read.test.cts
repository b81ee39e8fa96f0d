/** What the engine's rerank units make of the local /rerank: its rankings, and each mode a client must not trust. */
import { describeProblem } from '../../../engine/problems/describe-problem';
import { bestFirst, readRanking } from '../../../engine/rerank/read-reply';
import { rerankBatches, rerankInput } from '../../../engine/rerank/request';
import { subNodeWords } from '../../support/sub-node-replies.cts';
import { keys, useLocalService } from '../../support/service.cts';
import { rerank } from './client.cts';

const service = useLocalService();

const WORDS = subNodeWords('the Chat Completions Reranker node', ['topN', 'minScore']);

const store = [
	'The cat sat on the mat',
	'Paris is the capital of France',
	'Berlin is the capital of Germany',
];
const documents = store.map((pageContent, at) => ({ pageContent, metadata: { at } }));

/** One search through the engine's units against the local service: the ranking, or what the user reads. */
async function search(
	topN?: number,
	x_local?: Record<string, unknown>,
	{ model, key } = { model: 'rerank-1', key: keys.rag },
) {
	const request = { model, fields: {}, topN };
	const [batch] = rerankBatches(
		request,
		rerankInput('capital of France', documents, () => 'is missing'),
	);
	const reply = await rerank(service(), key, { ...batch.body, ...(x_local ? { x_local } : {}) });
	const http = {
		status: reply.status,
		headers: Object.fromEntries(reply.headers),
		text: reply.text,
	};
	try {
		return bestFirst([{ first: batch.first, ranking: readRanking(http, store.length) }], request);
	} catch (error) {
		const baseUrl = service().baseUrl;
		return describeProblem(error, { words: WORDS, model, baseUrl }).message;
	}
}

test("the service's ranking, best first, Top N kept also when the service ignores top_n or does not sort", async () => {
	const best = [
		{ index: 1, score: 1 },
		{ index: 2, score: 2 / 3 },
	];
	expect(await search(2)).toEqual(best);
	expect(await search(2, { ignore_top_n: true, shuffled: true })).toEqual(best);
	expect(await search(undefined, { shuffled: true })).toEqual([...best, { index: 0, score: 0 }]);
});

test.each([
	[
		'index_out_of_range',
		'sent a score for index 3, but only 3 documents were sent (indexes 0 to 2)',
	],
	['index_twice', 'sent two scores for document 2 (index 1)'],
	['no_score', 'sent result 3 (document 1) without a relevance_score'],
	[
		'text_score',
		'sent result 1 (document 2) whose relevance_score is the text "1", not a finite number',
	],
	['no_results', 'answered 200 without a list of results'],
	['html', 'answered 200 with an HTML page instead of a list of results: Gateway console'],
])('bad_reply %s is an error naming the model', async (badReply, problem) => {
	expect(await search(undefined, { bad_reply: badReply })).toMatch(
		new RegExp(`^The rerank model "rerank-1" ${problem.replace(/[()]/g, '\\$&')}`),
	);
});

test.each(['html', 'json'])('no_rerank %s reads as a Base URL without /rerank', async (page) => {
	expect(await search(undefined, { no_rerank: page })).toBe(
		`The service at "${service().baseUrl}" has no rerank endpoint: POST ${service().baseUrl}/rerank answered 404`,
	);
});

test('a chat model, and a model without a channel, read as such', async () => {
	expect(await search(undefined, undefined, { model: 'echo-1', key: keys.rag })).toBe(
		'Model "echo-1" cannot rerank: it is not a rerank model',
	);
	const model = 'fault-503-one-api-no-channel';
	expect(await search(undefined, undefined, { model, key: keys.fallback })).toBe(
		`Model "${model}" is not available to this API key's group: the gateway has no channel for it`,
	);
});
