/**
 * The embeddings sub-node's protocol: `request.ts` (texts checked, the body of each batch: plain strings,
 * `encoding_format: "float"`, `dimensions` when set), `read-reply.ts` (vectors matched to texts by
 * `index`, base64 decoded, a count, index or number that does not fit is an error: one finite-number check
 * for both encodings, naming the text and the number), and here `EmbeddingsClient`: every batch at once
 * through the run and `requests.ts`; a batch that fails cancels the others in flight, and `stopNote` counts
 * the batches sent and not used for the error; never another model.
 */
import { buildEmbeddingsRequest, checkTexts, embeddingsBody } from './request';
import type { EmbeddingsRequest } from './request';
import type { EmbeddingsReply } from './read-reply';
import { readEmbeddings } from './read-reply';
import type { Connection } from '../connection';
import { EmbeddingsReplyError } from '../failures/errors';
import type { Call } from '../requests';
import { Requests } from '../requests';
import type { StoreContext } from '../request/missing-query';
import { missingQuery } from '../request/missing-query';
import { summedUsage } from '../reply/input-usage';
import type { Run } from '../run/run';
import type { Sender } from '../transport/outgoing';

/** One call's batches: how many were sent, and how many are in flight now. */
interface Tally {
	sent: number;
	inFlight: number;
}

/** What a call's failure did with its batches: those sent (their vectors not used), cancelled, not sent. */
function stopNote(batches: number, sent: number, cancelled: number): string {
	const were = (count: number) => (count === 1 ? 'was' : 'were');
	const inFlight = cancelled === 0 ? '' : ` (${cancelled} cancelled in flight)`;
	const unsent = batches - sent;
	const notSent = unsent === 0 ? '' : `; ${unsent} ${were(unsent)} not sent`;
	return `The call stopped at this failure: ${sent} of its ${batches} batches ${were(sent)} sent and ${sent === 1 ? 'is' : 'are'} not used${inFlight}${notSent}.`;
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
	return { vectors, usage: summedUsage(replies.map((reply) => reply.usage)) };
}

/**
 * Embeds texts for the Embeddings node: `POST {base}/embeddings` with the credential applied by n8n, in
 * batches of Options > Batch Size sent at the same time through the run (its slots, Auto, the pause a
 * Retry-After sets), each with the request's retries. A client is made once per supplied embeddings
 * object, so every call of a vector store's insert shares one run. It never asks another model.
 */
export class EmbeddingsClient {
	/** The request of the node's Model and Options, checked before anything is sent. */
	static readonly checkRequest = buildEmbeddingsRequest;

	readonly #requests: Requests;
	/** Why the vector store passed no query, read from it when it did not. */
	readonly #missing: () => string;

	constructor(
		context: Sender & StoreContext,
		readonly connection: Connection,
		readonly run: Run,
		readonly request: EmbeddingsRequest,
	) {
		this.#requests = new Requests(context, connection, run);
		this.#missing = () => missingQuery(context);
	}

	/** What each failed call did with its batches, by the error it failed with (`stopNote`). */
	readonly #stops = new WeakMap<object, string>();

	/**
	 * One vector per text, in order. Empty texts fail before anything is sent; a batch that fails stops
	 * the others (`Requests.postAll`: none of the call's vectors is used), and what they did is noted for the
	 * call's error (`stopNote`).
	 */
	async embed(
		texts: readonly unknown[],
		what: 'Document' | 'Query',
		signal?: AbortSignal,
	): Promise<EmbeddingsReply> {
		const checked = checkTexts(texts, what, this.#missing);
		const { batchSize } = this.request;
		const batches = Array.from({ length: Math.ceil(checked.length / batchSize) }, (_, at) =>
			checked.slice(at * batchSize, (at + 1) * batchSize),
		);
		const tally: Tally = { sent: 0, inFlight: 0 };
		let cancelled = 0;
		try {
			const replies = await this.#requests.postAll(
				batches.map((batch) => this.batch(batch, tally)),
				signal,
				() => (cancelled = tally.inFlight),
			);
			return joined(replies, this.request.dimensions);
		} catch (error) {
			throw this.#noted(
				error,
				batches.length > 1 ? stopNote(batches.length, tally.sent, cancelled) : '',
			);
		}
	}

	/** `error`, with what its call did with its batches kept for `stopNote` (nothing for a call of one batch). */
	#noted(error: unknown, note: string): unknown {
		if (note !== '' && typeof error === 'object' && error !== null) this.#stops.set(error, note);
		return error;
	}

	/** What the call that failed with `error` did with its batches, for its error ('' for a call of one batch). */
	stopNote(error: unknown): string {
		return typeof error === 'object' && error !== null ? (this.#stops.get(error) ?? '') : '';
	}

	/** One batch's request, counted in `tally` as it is sent and answered. */
	private batch(texts: string[], tally: Tally): Call<EmbeddingsReply> {
		let sent = false;
		return {
			path: 'embeddings',
			request: this.request,
			body: embeddingsBody(this.request, texts),
			read: (reply) => readEmbeddings(reply, texts.length),
			tokensOf: (reply) => reply.usage?.totalTokens,
			attempts: {
				started: () => {
					if (!sent) tally.sent++;
					sent = true;
					tally.inFlight++;
				},
				ended: () => tally.inFlight--,
			},
		};
	}
}
