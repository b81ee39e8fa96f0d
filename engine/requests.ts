/**
 * The one way an endpoint other than chat is called, and a file at an absolute URL fetched. `Requests.postAll`:
 * the requests of one sub-node call at once, one failure ending the others; `Requests.post` and `Requests.get`:
 * one request once the run admits it, an item of the media node or a balance endpoint. POST with JSON or a body
 * made whole, or GET; under the Base URL or the site root; each attempt through `Run.send` with the request's
 * retries and rate-limit waits, on the route chosen at the first request, the whole body read as bytes with its
 * text decoded when first read, the failure classified by the table as a chat request's is. `Requests.download`:
 * a file at an absolute URL (a reply's image), the key only to the Base URL's origin, through the run, its body
 * handed on as a stream. What every such request carries is checked once in `request/endpoint.ts`
 * (`endpointRequest`: the model, Extra Body and the Options' wire fields, Timeout, the retries).
 */
import type { Connection } from './connection';
import { siteRoot } from './connection';
import { serviceErrorFrom } from './reply/error-body';
import { optionSetting } from './options/read';
import type { EndpointRequest } from './request/endpoint';
import { retryPolicy } from './request/retry-policy';
import { withRetries } from './retry/with-retries';
import type { Run } from './run/run';
import { openReply, send } from './transport/http';
import type { Outgoing, PathGet, RawBody, Sender, WholeReply } from './transport/outgoing';
import type { BinarySource } from './transport/read-stream';
import { readWhole, watchedStream } from './transport/read-stream';
import type { Route } from './transport/route';
import { chooseRoute } from './transport/route';

/** One request to an endpoint other than chat, and how its answer is read; which method sends it says GET or POST. */
export interface Call<T> {
	/** The endpoint under the Base URL: `embeddings`, `rerank`, `images/generations`, ... */
	path: string;
	/** The endpoint is under the site root instead (the Base URL without its version segment: LiteLLM's `key/info`). */
	root?: true;
	/** The model (none for the balance), Timeout and retries it is sent with. */
	request: Pick<EndpointRequest, 'timeout' | 'retry'> & { model?: string };
	/** Sent as JSON (POST only); `raw` instead is sent as it is (a multipart form). */
	body?: object;
	raw?: RawBody;
	read: (reply: WholeReply) => T;
	/** The tokens an answer used, for the Token Budget. */
	tokensOf: (answer: T) => number | undefined;
	/** Sent at most once on the wire, even on a kept connection lost before any answer (a video job's submit). */
	once?: true;
	/** Hear of each attempt: sent (`started`) and answered or failed (`ended`). */
	attempts?: { started: () => void; ended: () => void };
}

/** `scheme://host:port` of a URL, as the URL standard has it (a default port left out). */
const originOf = (url: string) => new URL(url).origin;

/** A URL as a message may show it: without its query and fragment (a signed URL's secret). */
export function shownUrl(url: string): string {
	const { origin, pathname } = new URL(url);
	return `${origin}${pathname}`;
}

/**
 * The requests of an endpoint other than chat (`/embeddings`, `/rerank`, the image and audio endpoints, the
 * balance), the way chat requests go: each admitted by the run (`Run.admit`), each attempt through the run (`Run.send`: a slot, the key's pauses and pacing, the Token Budget) with the request's
 * retries and rate-limit waits (`withRetries`), on the route chosen at the first request (`chooseRoute`), the
 * whole body read (`send`); what fails is classified by the failure table as a chat request's failure is.
 */
export class Requests {
	constructor(
		private readonly context: Sender,
		readonly connection: Connection,
		readonly run: Run,
	) {}

	/** The route every request of these takes, chosen at the first. */
	#route?: Promise<Route>;

	/**
	 * The requests of one call (a vector store's insert, a search), sent at the same time, their answers in
	 * order. One that fails for good ends the others (those in flight cancelled, the rest not sent): `failing`
	 * hears of its error first, and the call fails with it once they have all ended. `signal` ends them all.
	 */
	async postAll<T>(
		posts: ReadonlyArray<Call<T>>,
		signal?: AbortSignal,
		failing?: (error: unknown) => void,
	): Promise<T[]> {
		const failed = new AbortController();
		const ends = this.run.signal(signal ? AbortSignal.any([signal, failed.signal]) : failed.signal);
		const calls = posts.map(
			async (post) => await this.run.admit(() => this.#send('POST', post, ends)),
		);
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
	async post<T>(post: Call<T> | (() => Promise<Call<T>>), signal?: AbortSignal): Promise<T> {
		return await this.run.admit(
			async () =>
				await this.#send(
					'POST',
					typeof post === 'function' ? await post() : post,
					this.run.signal(signal),
				),
		);
	}

	/** As `post`, but a GET: the call's body, if any, is not sent (the balance endpoints). */
	async get<T>(call: Omit<Call<T>, 'body' | 'raw'>, signal?: AbortSignal): Promise<T> {
		return await this.run.admit(async () => await this.#send('GET', call, this.run.signal(signal)));
	}

	/**
	 * The file at `url` (an absolute URL a reply gave), its body as a stream that is not held here: with the
	 * key (Authorization, all Extra Headers) only when `url` has the Base URL's origin, else without it (no
	 * Authorization, only the Extra Headers that carry no secret), through n8n's request handling either way.
	 * Each attempt through the run (`Run.send`: a slot, the cancel, the stop, counted as sent), a turn on the key
	 * only when the key goes with it; retried as the failure table says (5xx, 429, the network), until the status
	 * and headers are in. A status other than 2xx is a ServiceError naming the URL without its query. Not
	 * admitted again: it is part of a request the run admitted (an item).
	 */
	async download(
		url: string,
		request: Pick<EndpointRequest, 'timeout' | 'retry'>,
		signal?: AbortSignal,
	): Promise<BinarySource> {
		this.#route ??= chooseRoute(this.context, this.connection);
		const route = await this.#route;
		const { connection } = this;
		const withKey = originOf(url) === originOf(connection.baseUrl);
		const ends = this.run.signal(signal);
		const outgoing: Outgoing = {
			method: 'GET',
			url,
			timeout: request.timeout,
			stream: true,
			connection,
			cancel: ends,
			...(withKey ? {} : { keyless: true }),
		};
		const attempt = async () => {
			const { status, headers, body, limits } = await openReply(route, outgoing);
			if (status >= 200 && status < 300) return watchedStream(body, limits);
			const error = serviceErrorFrom({ status, headers, text: await readWhole(body, limits) });
			error.download = shownUrl(url);
			throw error;
		};
		return await withRetries(attempt, request.retry, this.run, {
			signal: ends,
			tokensOf: () => undefined,
			...(withKey ? {} : { keyless: true }),
		});
	}

	/** Sends `post` with `method` until it is answered or fails for good; `signal` ends it (and its waits) at once. */
	async #send<T>(method: 'GET' | 'POST', post: Call<T>, signal: AbortSignal): Promise<T> {
		this.#route ??= chooseRoute(this.context, this.connection);
		const route = await this.#route;
		const { connection } = this;
		const { request } = post;
		const attempt = async () => {
			post.attempts?.started();
			const reply = await send(route, {
				method,
				url: `${post.root ? siteRoot(connection.baseUrl) : connection.baseUrl}/${post.path}`,
				...(method === 'POST' ? { body: post.body, raw: post.raw } : {}),
				timeout: request.timeout,
				connection,
				cancel: signal,
				...(post.once === true ? { once: true as const } : {}),
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

/** A GET under the Base URL (or the site root, `root`) through the run, its answer read by `read`. */
export type OptionGet = <T>(
	at: { path: string; root?: true },
	read: (reply: WholeReply) => T,
) => Promise<T>;

/** GETs through the run, each with Options' Timeout and retries: the balance's and the catalogue's endpoints. */
export function optionGets(
	context: Sender,
	connection: Connection,
	run: Run,
	options: Record<string, unknown>,
): PathGet {
	const requests = new Requests(context, connection, run);
	const request = { timeout: optionSetting(options, 'timeout'), retry: retryPolicy(options) };
	return async ({ path, root }, read) =>
		await requests.get({
			path,
			...(root ? { root } : {}),
			request,
			read,
			tokensOf: () => undefined,
		});
}
