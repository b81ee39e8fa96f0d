import type { RerankRequest } from './request';
import type { Endpoint } from '../failures/errors';
import { RerankReplyError } from '../failures/errors';
import { entryIndex } from '../reply/entry-index';
import type { InputUsage } from '../reply/input-usage';
import { inputUsageOf } from '../reply/input-usage';
import { listInReply, withoutList } from '../reply/list-reply';
import type { HttpReply } from '../transport/outgoing';
import { describe, isPlainObject } from '../values';

/** A document and its score: `index` into the documents sent, `score` the service's number unchanged. */
export interface Ranked {
	index: number;
	score: number;
}

/** The ranking of one request: its documents best first (those the service returned), and what it used. */
export interface Ranking {
	ranked: Ranked[];
	/** Undefined when the service reported no usage. */
	usage?: InputUsage;
}

/** How the reader's errors name the reply's results and the documents sent. */
const RESULTS = {
	entry: 'result',
	value: 'score',
	item: 'document',
	fail: (problem: string) => new RerankReplyError(problem),
};

/** Best first; documents scored the same keep the order they were sent in. */
const byScore = (a: Ranked, b: Ranked) => b.score - a.score || a.index - b.index;

/** A result's score: `relevance_score`, a finite number (JSON's `1e999` reads as Infinity); else the error. */
function scoreOf(result: unknown, at: number, index: number): number {
	const score = isPlainObject(result) ? result.relevance_score : undefined;
	const which = `result ${at + 1} (document ${index + 1})`;
	if (score === undefined) throw new RerankReplyError(`sent ${which} without a relevance_score`);
	if (typeof score !== 'number' || !Number.isFinite(score)) {
		throw new RerankReplyError(
			`sent ${which} whose relevance_score is ${describe(score)}, not a finite number`,
		);
	}
	return score;
}

/** The rerank endpoint, as its failures name it. */
export const RERANK_ENDPOINT: Endpoint = {
	operation: 'rerank',
	path: 'rerank',
	name: 'rerank',
	offers: 'reranking',
};

/**
 * Reads the reply to a rerank request of `sent` documents (`{results: [{index, relevance_score, document?}],
 * usage?}`, Cohere's and Jina's shape). Each result is matched to its document by `index`, never by position,
 * and the ranking is sorted best first whatever order the service sent; the score is kept as it came. A reply
 * that cannot be trusted is a RerankReplyError: no list of results (a web page, text that is not JSON), a
 * result without an index, with one outside the documents sent or one taken before, a score that is missing or
 * not a finite number. An error status, or an error object inside a 2xx, is the ServiceError it says, marked
 * as the rerank endpoint's.
 */
export function readRanking(reply: HttpReply, sent: number): Ranking {
	const { list: results, json, body } = listInReply(reply, 'results', RERANK_ENDPOINT);
	if (results === undefined) {
		throw new RerankReplyError(withoutList(reply.status, body, 'a list of results'));
	}
	const taken = new Set<number>();
	const ranked = results.map((result: unknown, at) => {
		const index = entryIndex(result, at, sent, taken, RESULTS);
		return { index, score: scoreOf(result, at, index) };
	});
	return { ranked: ranked.sort(byScore), usage: inputUsageOf(json?.usage) };
}

/**
 * The documents of a search best first, from the rankings of its requests (`first`: where each request's
 * documents start among the search's): indexes into all the documents of the search, at most Top N of them,
 * none scored below Minimum Score. Applied here too, as some services ignore `top_n`.
 */
export function bestFirst(
	rankings: ReadonlyArray<{ first: number; ranking: Ranking }>,
	request: Pick<RerankRequest, 'topN' | 'minScore'>,
): Ranked[] {
	const { topN, minScore } = request;
	return rankings
		.flatMap(({ first, ranking }) =>
			ranking.ranked.map(({ index, score }) => ({ index: first + index, score })),
		)
		.filter(({ score }) => minScore === undefined || score >= minScore)
		.sort(byScore)
		.slice(0, topN);
}
