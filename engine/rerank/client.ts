/**
 * The reranker sub-node's protocol: `request.ts` (the query and the documents' texts checked, Top N and
 * Minimum Score, the body of each request: plain strings, `top_n`, at most 1,000 documents a request),
 * `read-reply.ts` (results matched to documents by `index`, best first whatever order the service sent,
 * the score unchanged; an index outside the documents or taken twice, a missing or non-numeric score, no
 * results or a web page is a `RerankReplyError` naming the model; `bestFirst` joins the requests' rankings
 * and applies Top N and Minimum Score again, as some services ignore `top_n`), and here
 * `RerankClient.rank`: no documents, no request; the requests at once through the run and `requests.ts`, one
 * failing cancels the others.
 */
import type { Ranked, Ranking } from './read-reply';
import { bestFirst, readRanking } from './read-reply';
import type { RerankRequest } from './request';
import { buildRerankRequest, rerankBatches, rerankInput } from './request';
import type { Connection } from '../connection';
import { Requests } from '../requests';
import type { InputUsage } from '../reply/input-usage';
import type { StoreContext } from '../request/missing-query';
import { missingQuery } from '../request/missing-query';
import { summedUsage } from '../reply/input-usage';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';

/** A search's documents best first (`index` into the documents given, the service's `score`), and what it used. */
export interface Reranked {
	ranked: Ranked[];
	/** Undefined when the service reported no usage. */
	usage?: InputUsage;
}

/**
 * Reranks a search's documents for the Reranker node: `POST {base}/rerank` with the credential applied by
 * n8n, through the run like every request (its slots, the key's pauses and pacing), with the request's
 * retries. More than 1,000 documents go in several requests at the same time (`Requests.postAll`: one that
 * fails cancels the others). It never asks another model.
 */
export class RerankClient {
	/** The request of the node's Model and Options, checked before anything is sent. */
	static readonly checkRequest = buildRerankRequest;

	readonly #requests: Requests;
	/** Why the vector store passed no query, read from it when it did not. */
	readonly #missing: () => string;

	constructor(
		context: Sender & StoreContext,
		readonly connection: Connection,
		readonly run: Run,
		readonly request: RerankRequest,
	) {
		this.#requests = new Requests(context, connection, run);
		this.#missing = () => missingQuery(context);
	}

	/**
	 * The documents best first, at most Options > Top N of them, none scored below Minimum Score. The query and
	 * every document's text are checked before anything is sent; no documents, no request (no batch).
	 */
	async rank(
		query: unknown,
		documents: readonly unknown[],
		signal?: AbortSignal,
	): Promise<Reranked> {
		const batches = rerankBatches(this.request, rerankInput(query, documents, this.#missing));
		const rankings = await this.#requests.postAll(
			batches.map(({ body }) => ({
				path: 'rerank',
				request: this.request,
				body,
				read: (reply) => readRanking(reply, body.documents.length),
				tokensOf: (answer: Ranking) => answer.usage?.totalTokens,
			})),
			signal,
		);
		const starts = batches.map(({ first }, at) => ({ first, ranking: rankings[at] }));
		return {
			ranked: bestFirst(starts, this.request),
			usage: summedUsage(rankings.map((ranking) => ranking.usage)),
		};
	}
}
