import type { Connection } from './connection';
import { siteRoot } from './connection';
import type { EndpointRequest } from './request/endpoint';
import { withRetries } from './retry/with-retries';
import type { Run } from './run/run';
import { send } from './transport/http';
import type { RawBody, Sender, WholeReply } from './transport/outgoing';
import type { Route } from './transport/route';
import { chooseRoute } from './transport/route';

/** One request to an endpoint other than chat, and how its answer is read. */
export interface Post<T> {
	/** The endpoint under the Base URL: `embeddings`, `rerank`, `images/generations`, ... */
	path: string;
	/** The endpoint is under the site root instead (the Base URL without its version segment: LiteLLM's `key/info`). */
	root?: true;
	/** POST unless GET is given (a GET sends no body). */
	method?: 'GET';
	/** The model (none for the balance), Timeout and retries it is sent with. */
	request: Pick<EndpointRequest, 'timeout' | 'retry'> & { model?: string };
	/** Sent as JSON; `raw` instead is sent as it is (a multipart form). */
	body?: object;
	raw?: RawBody;
	read: (reply: WholeReply) => T;
	/** The tokens an answer used, for the Token Budget. */
	tokensOf: (answer: T) => number | undefined;
	/** Hear of each attempt: sent (`started`) and answered or failed (`ended`). */
	attempts?: { started: () => void; ended: () => void };
}

/**
 * The requests of an endpoint other than chat (`/embeddings`, `/rerank`, the image and audio endpoints, the
 * balance), the
 * way chat requests go: each admitted
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

	/**
	 * Sends one request once the run admits it (an item of the media node): until it is answered or fails for
	 * good; the run's stop, the execution's cancel and `signal` end it. Given as a function, the request is made
	 * once admitted (an upload's bytes are read then: only as many are held as are in flight).
	 */
	async post<T>(post: Post<T> | (() => Promise<Post<T>>), signal?: AbortSignal): Promise<T> {
		return await this.run.admit(
			async () =>
				await this.#post(typeof post === 'function' ? await post() : post, this.run.signal(signal)),
		);
	}

	/** Sends `post` until it is answered or fails for good; `signal` ends it (and its waits) at once. */
	async #post<T>(post: Post<T>, signal: AbortSignal): Promise<T> {
		this.#route ??= chooseRoute(this.context, this.connection);
		const route = await this.#route;
		const { connection } = this;
		const { request } = post;
		const attempt = async () => {
			post.attempts?.started();
			const reply = await send(route, {
				method: post.method ?? 'POST',
				url: `${post.root ? siteRoot(connection.baseUrl) : connection.baseUrl}/${post.path}`,
				body: post.body,
				raw: post.raw,
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
