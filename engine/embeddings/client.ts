import { checkTexts, embeddingsBody } from './request';
import type { EmbeddingsRequest } from './request';
import type { EmbeddingsReply, EmbeddingsUsage } from './read-reply';
import { readEmbeddings } from './read-reply';
import type { Connection } from '../connection';
import { EmbeddingsReplyError } from '../failures/errors';
import { withRetries } from '../retry/with-retries';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';
import { send } from '../transport/http';
import type { Route } from '../transport/route';
import { chooseRoute } from '../transport/route';

/** The sum of the batches' usage; undefined when no batch reported any. */
function totalUsage(replies: EmbeddingsReply[]): EmbeddingsUsage | undefined {
	const reported = replies.flatMap((reply) => (reply.usage === undefined ? [] : [reply.usage]));
	if (reported.length === 0) return undefined;
	return {
		promptTokens: reported.reduce((sum, usage) => sum + usage.promptTokens, 0),
		totalTokens: reported.reduce((sum, usage) => sum + usage.totalTokens, 0),
	};
}

/** The vectors of one call, whatever the batches, with their length checked against Options > Dimensions. */
function joined(replies: EmbeddingsReply[], dimensions: number | undefined): EmbeddingsReply {
	const vectors = replies.flatMap((reply) => reply.vectors);
	const length = dimensions ?? vectors[0]?.length;
	const other = vectors.find((vector) => vector.length !== length);
	if (other !== undefined) {
		throw new EmbeddingsReplyError(
			dimensions === undefined
				? `sent vectors of different lengths in one call (${length} and ${other.length} numbers)`
				: `sent vectors of ${other.length} numbers where Options > Dimensions asks for ${dimensions}: the model does not give vectors of that length (remove Dimensions, or choose a model that takes it)`,
		);
	}
	return { vectors, usage: totalUsage(replies) };
}

/**
 * Embeds texts for the Embeddings node: `POST {base}/embeddings` with the credential applied by n8n, in
 * batches of Options > Batch Size sent at the same time through the run (its slots, Auto, the pause a
 * Retry-After sets), each with the request's retries. A client is made once per supplied embeddings
 * object, so every call of a vector store's insert shares one run. It never asks another model.
 */
export class EmbeddingsClient {
	constructor(
		private readonly context: Sender,
		readonly connection: Connection,
		readonly run: Run,
		readonly request: EmbeddingsRequest,
	) {}

	/** The route every batch of this client takes, chosen at its first call. */
	#route?: Promise<Route>;

	/**
	 * One vector per text, in order. Empty texts fail before anything is sent; a batch that fails stops
	 * the others (none of the call's vectors is used).
	 */
	async embed(
		texts: readonly unknown[],
		what: 'Document' | 'Query',
		signal?: AbortSignal,
	): Promise<EmbeddingsReply> {
		const checked = checkTexts(texts, what);
		const { batchSize } = this.request;
		const batches = Array.from({ length: Math.ceil(checked.length / batchSize) }, (_, at) =>
			checked.slice(at * batchSize, (at + 1) * batchSize),
		);
		const failed = new AbortController();
		const ends = this.run.signal(signal ? AbortSignal.any([signal, failed.signal]) : failed.signal);
		const replies = await Promise.all(
			batches.map(async (batch) => await this.run.admit(() => this.batch(batch, ends))),
		).catch((error: unknown) => {
			failed.abort();
			throw error;
		});
		return joined(replies, this.request.dimensions);
	}

	private async batch(texts: string[], signal: AbortSignal): Promise<EmbeddingsReply> {
		this.#route ??= chooseRoute(this.context, this.connection);
		const route = await this.#route;
		const attempt = async () =>
			readEmbeddings(
				await send(route, {
					method: 'POST',
					url: `${this.connection.baseUrl}/embeddings`,
					body: embeddingsBody(this.request, texts),
					timeout: this.request.timeout,
					connection: this.connection,
					cancel: signal,
				}),
				texts.length,
			);
		return await withRetries(attempt, this.request.retry, this.run, {
			signal,
			model: this.request.model,
			tokensOf: (reply) => reply.usage?.totalTokens,
		});
	}
}
