/** The reader of a rerank reply: scores matched to the documents by index and sorted, or an error that names the model. */
import { ServiceError } from '../../../engine/failures/errors';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { bestFirst, readRanking } from '../../../engine/rerank/read-reply';
import type { Ranking } from '../../../engine/rerank/read-reply';
import { replyWith as reply, subNodeWords } from '../../support/sub-node-replies.cts';

const WORDS = subNodeWords('the Chat Completions Reranker node', ['topN', 'minScore']);

const result = (index: unknown, relevance_score?: unknown) => ({
	index,
	...(relevance_score === undefined ? {} : { relevance_score }),
});

/** What the user reads of a reply that fails, for model rerank-1 on a Base URL. */
function failure(body: unknown, sent: number, status = 200, baseUrl = 'https://gw.example.com/v1') {
	try {
		readRanking(reply(body, status), sent);
	} catch (error) {
		const { message, description } = describeProblem(error, {
			words: WORDS,
			model: 'rerank-1',
			baseUrl,
		});
		return { message, description };
	}
	throw new Error('the reply was read');
}

test('matches scores to documents by index, not by position, sorts them best first and keeps each score as it came', () => {
	const read = readRanking(
		reply({
			results: [result(0, 0.25), result(2, 0.9000000000000001), result(1, 0.5)],
			usage: { total_tokens: 12 },
		}),
		3,
	);
	expect(read).toEqual({
		ranked: [
			{ index: 2, score: 0.9000000000000001 },
			{ index: 1, score: 0.5 },
			{ index: 0, score: 0.25 },
		],
		usage: { promptTokens: 12, totalTokens: 12 },
	});
});

test("reads Jina's and new-api's results with the document's text, and scores outside 0 to 1", () => {
	const read = readRanking(
		reply({
			model: 'jina-reranker-v2',
			results: [
				{ index: 1, document: { text: 'b' }, relevance_score: 3.5 },
				{ index: 0, document: { text: 'a' }, relevance_score: -2 },
			],
		}),
		2,
	);
	expect(read.ranked).toEqual([
		{ index: 1, score: 3.5 },
		{ index: 0, score: -2 },
	]);
	expect(read.usage).toBeUndefined();
});

test('documents scored the same keep the order they were sent in', () => {
	const read = readRanking(reply({ results: [result(2, 0.5), result(0, 0.5), result(1, 0.7)] }), 3);
	expect(read.ranked.map(({ index }) => index)).toEqual([1, 0, 2]);
});

test('fewer results than documents (top_n) are read as they are', () => {
	expect(readRanking(reply({ results: [result(4, 0.1)] }), 5).ranked).toEqual([
		{ index: 4, score: 0.1 },
	]);
});

test.each([
	[
		'an index outside the documents sent',
		{ results: [result(0, 0.5), result(3, 0.4)] },
		'The rerank model "rerank-1" sent a score for index 3, but only 3 documents were sent (indexes 0 to 2)',
	],
	[
		'the same index twice',
		{ results: [result(1, 0.5), result(1, 0.4)] },
		'The rerank model "rerank-1" sent two scores for document 2 (index 1)',
	],
	[
		'a result without an index',
		{ results: [result(0, 0.5), { relevance_score: 0.4 }] },
		'The rerank model "rerank-1" sent result 2 of its reply without an index, so which document its score belongs to is unknown',
	],
	[
		'an index that is not a whole number',
		{ results: [result('0', 0.5)] },
		'The rerank model "rerank-1" sent result 1 of its reply without an index, so which document its score belongs to is unknown',
	],
	[
		'a missing score',
		{ results: [result(0, 0.5), result(2)] },
		'The rerank model "rerank-1" sent result 2 (document 3) without a relevance_score',
	],
	[
		'a score that is text',
		{ results: [result(1, '0.87')] },
		'The rerank model "rerank-1" sent result 1 (document 2) whose relevance_score is the text "0.87", not a finite number',
	],
	[
		'a score of 1e999 (JSON.parse reads Infinity)',
		'{"results":[{"index":0,"relevance_score":1e999}]}',
		'The rerank model "rerank-1" sent result 1 (document 1) whose relevance_score is Infinity, not a finite number',
	],
	[
		'a score that is null',
		{ results: [result(0, null)] },
		'The rerank model "rerank-1" sent result 1 (document 1) whose relevance_score is null, not a finite number',
	],
	[
		'no results',
		{ data: [result(0, 0.5)] },
		'The rerank model "rerank-1" answered 200 without a list of results: {"data":[{"index":0,"relevance_score":0.5}]}',
	],
	[
		'an HTML page',
		'<!DOCTYPE html><html><head><title>Gateway console</title></head><body>Sign in</body></html>',
		'The rerank model "rerank-1" answered 200 with an HTML page instead of a list of results: Gateway console',
	],
	[
		'text that is not JSON',
		'OK',
		'The rerank model "rerank-1" answered 200 with text that is not JSON instead of a list of results: OK',
	],
	[
		'an empty body',
		'',
		'The rerank model "rerank-1" answered 200 with an empty body instead of a list of results',
	],
])('%s is an error naming the model, and no order of it is used', (_name, body, message) => {
	const { message: said, description } = failure(body, 3);
	expect(said).toBe(message);
	expect(description).toMatch(/^No order of this reply is used/);
});

test('an error inside a 200 is the service error it says', () => {
	expect(() => readRanking(reply({ error: { message: 'upstream failed', type: 'x' } }), 1)).toThrow(
		ServiceError,
	);
	expect(failure({ error: { message: 'upstream failed' } }, 1).message).toBe(
		'The service reported an error inside a successful (200) response: upstream failed',
	);
});

test.each([
	[
		'vLLM',
		400,
		{ object: 'error', message: 'The model does not support Rerank (Score) API', code: 400 },
	],
	[
		'this service',
		400,
		{
			error: {
				message: 'The model does not support Rerank (Score) API',
				code: 'model_not_supported',
			},
		},
	],
	[
		'Infinity',
		400,
		{ error: { message: 'ModelNotDeployedError: model=`embed-1` does not support `rerank`.' } },
	],
	[
		'new-api, a channel without rerank',
		500,
		{
			error: {
				message: 'not implemented (request id: 2026112712)',
				type: 'new_api_error',
				code: 'convert_request_failed',
			},
		},
	],
	[
		'llama.cpp',
		501,
		{ error: { message: 'This server does not support reranking. Start it with `--reranking`' } },
	],
])(
	'a model that cannot rerank (%s): choose a rerank model, with the service words and status',
	(_name, status, body) => {
		const { message, description } = failure(body, 1, status);
		expect(message).toBe('Model "rerank-1" cannot rerank: it is not a rerank model');
		expect(description).toMatch(
			new RegExp(
				`^The service answered .*\\(HTTP ${status}[,)].* Choose a rerank model in the Model field`,
			),
		);
	},
);

test.each([
	[
		'an HTML page',
		'<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
	],
	['a text page', '404 page not found'],
	[
		"OpenAI's Invalid URL",
		{
			error: {
				message: 'Invalid URL (POST /v1/rerank)',
				type: 'invalid_request_error',
				code: null,
			},
		},
	],
	["FastAPI's Not Found", { detail: 'Not Found' }],
])(
	'a Base URL whose service has no /rerank (%s): check the Base URL, or the gateway offers no rerank',
	(_name, body) => {
		const { message, description } = failure(body, 1, 404);
		expect(message).toBe(
			'The service at "https://gw.example.com/v1" has no rerank endpoint: POST https://gw.example.com/v1/rerank answered 404',
		);
		expect(description).toMatch(
			/^The service answered .*\(HTTP 404[,)].*\. Check the Base URL in the credential: .* If it is right, this gateway does not offer reranking/,
		);
	},
);

test('the same answers from another endpoint keep their own words (only /rerank reads them as rerank failures)', () => {
	const words = (status: number, body: unknown) =>
		describeProblem(serviceErrorFrom(reply(body, status)), {
			words: WORDS,
			model: 'echo-1',
			baseUrl: 'https://gw.example.com/v1',
		}).message;
	expect(words(404, '404 page not found')).toBe(
		'The service has no such endpoint under "https://gw.example.com/v1" (404)',
	);
	expect(
		words(500, { error: { message: 'not implemented', code: 'convert_request_failed' } }),
	).toBe('The service failed while answering (500)');
});

test('a 404 without the version segment says the Base URL lacks /v1', () => {
	expect(failure('404 page not found', 1, 404, 'https://gw.example.com').message).toBe(
		'The Base URL "https://gw.example.com" lacks the version segment /v1, so the service answered 404',
	);
});

test.each([
	[
		'a model that does not exist',
		404,
		{ error: { message: 'The model `rerank-x` does not exist', code: 'model_not_found' } },
		'Model "rerank-1" does not exist on this service',
	],
	[
		'no channel (one-api)',
		503,
		{
			error: {
				message: '当前分组 default 下对于模型 rerank-1 无可用渠道',
				type: 'one_api_error',
				code: null,
			},
		},
		'Model "rerank-1" is not available to this API key\'s group: the gateway has no channel for it',
	],
	[
		'no channel (new-api)',
		503,
		{
			error: {
				message: 'No available channel for model rerank-1 under group default',
				type: 'new_api_error',
			},
		},
		'Model "rerank-1" is not available to this API key\'s group: the gateway has no channel for it',
	],
	[
		'a rejected key',
		401,
		{ error: { message: 'Incorrect API key provided' } },
		'The service rejected the API key',
	],
	[
		'a server failure',
		500,
		{ error: { message: 'Internal server error' } },
		'The service failed while answering (500)',
	],
])('%s at /rerank reads as for chat', (_name, status, body, message) => {
	expect(failure(body, 1, status).message).toBe(message);
});

describe('bestFirst: the documents of a search', () => {
	const ranking = (...ranked: Array<[number, number]>): Ranking => ({
		ranked: ranked.map(([index, score]) => ({ index, score })),
	});

	it('joins the requests of a search by where their documents start, best first', () => {
		const batches = [
			{ first: 0, ranking: ranking([1, 0.6], [0, 0.2]) },
			{ first: 2, ranking: ranking([0, 0.9], [1, 0.1]) },
		];
		expect(bestFirst(batches, {})).toEqual([
			{ index: 2, score: 0.9 },
			{ index: 1, score: 0.6 },
			{ index: 0, score: 0.2 },
			{ index: 3, score: 0.1 },
		]);
	});

	it('keeps at most Top N, also when the service ignored top_n', () => {
		const batches = [{ first: 0, ranking: ranking([3, 0.9], [1, 0.8], [0, 0.3], [2, 0.1]) }];
		expect(bestFirst(batches, { topN: 2 }).map(({ index }) => index)).toEqual([3, 1]);
	});

	it('leaves out documents scored below Minimum Score (a score equal to it stays)', () => {
		const batches = [{ first: 0, ranking: ranking([0, 0.9], [1, 0.5], [2, 0.49]) }];
		expect(bestFirst(batches, { minScore: 0.5 }).map(({ index }) => index)).toEqual([0, 1]);
		expect(bestFirst(batches, { minScore: 0.95 })).toEqual([]);
	});

	it('applies Minimum Score before Top N', () => {
		const batches = [{ first: 0, ranking: ranking([0, 0.9], [1, 0.2], [2, 0.1]) }];
		expect(bestFirst(batches, { topN: 2, minScore: 0.15 })).toEqual([
			{ index: 0, score: 0.9 },
			{ index: 1, score: 0.2 },
		]);
	});
});
