import type { Connection } from './connection';
import type { EndpointRequest } from './request/endpoint';
import { withRetries } from './retry/with-retries';
import type { Run } from './run/run';
import { send } from './transport/http';
import type { HttpReply, Sender } from './transport/outgoing';
import type { Route } from './transport/route';
import { chooseRoute } from './transport/route';

/** One request to a sub-node's endpoint, and how its answer is read. */
export interface Post<T> {
	/** The endpoint under the Base URL: `embeddings`, `rerank`. */
	path: string;
	body: object;
	read: (reply: HttpReply) => T;
	/** The tokens an answer used, for the Token Budget. */
	tokensOf: (answer: T) => number | undefined;
	/** Hear of each attempt: sent (`started`) and answered or failed (`ended`). */
	attempts?: { started: () => void; ended: () => void };
}

/**
 * The requests of a sub-node's endpoint (`/embeddings`, `/rerank`), the way chat requests go: each admitted
 * by the run (`Run.admit`), each attempt
 * through the run (`Run.send`: a slot, the key's pauses and pacing, the Token Budget) with the request's
 * retries and rate-limit waits (`withRetries`), on the route chosen at the first request (`chooseRoute`), the
 * whole body read (`send`); what fails is classified by the failure table as a chat request's failure is.
 */
export class Poster {
	constructor(
		private readonly context: Sender,
		readonly connection: Connection,
		readonly run: Run,
		readonly request: EndpointRequest,
	) {}

	/** The route every request of this poster takes, chosen at its first. */
	#route?: Promise<Route>;

	/**
	 * The requests of one call (a vector store's insert, a search), sent at the same time, their answers in
	 * order. One that fails for good ends the others (those in flight cancelled, the rest not sent): `failing`
	 * hears of its error first, and the call fails with it once they have all ended. `signal` ends them all.
	 */
	async postAll<T>(
		posts: ReadonlyArray<Post<T>>,
		signal?: AbortSignal,
		failing?: (error: unknown) => void,
	): Promise<T[]> {
		const failed = new AbortController();
		const ends = this.run.signal(signal ? AbortSignal.any([signal, failed.signal]) : failed.signal);
		const calls = posts.map(async (post) => await this.run.admit(() => this.#post(post, ends)));
		/** Ends the other requests after `error` (those in flight cancelled), once they have ended. */
		const stopped = async (error: unknown) => {
			failing?.(error);
			failed.abort();
			await Promise.allSettled(calls);
			return error;
		};
		try {
			return await Promise.all(calls);
		} catch (error) {
			throw await stopped(error);
		}
	}

	/** Sends `post` until it is answered or fails for good; `signal` ends it (and its waits) at once. */
	async #post<T>(post: Post<T>, signal: AbortSignal): Promise<T> {
		this.#route ??= chooseRoute(this.context, this.connection);
		const route = await this.#route;
		const { connection, request } = this;
		const attempt = async () => {
			post.attempts?.started();
			const reply = await send(route, {
				method: 'POST',
				url: `${connection.baseUrl}/${post.path}`,
				body: post.body,
				timeout: request.timeout,
				connection,
				cancel: signal,
			}).finally(() => post.attempts?.ended());
			return post.read(reply);
		};
		return await withRetries(attempt, request.retry, this.run, {
			signal,
			model: request.model,
			tokensOf: post.tokensOf,
		});
	}
}
