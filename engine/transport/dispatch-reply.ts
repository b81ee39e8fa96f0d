import { assertHopAllowed } from './allowed-domains';
import type { Dispatcher } from './n8n-dispatcher';
import type { FullResponse } from './outgoing';
import type { ByteStream } from './read-stream';
import { SentAgain } from './network-error';
import { NetworkError } from '../failures/errors';

export interface DispatchRequest {
	method: string;
	url: string;
	/** Authorization included: it goes on to the same origin only. */
	headers: Record<string, string>;
	/** JSON text, or a body made whole (a multipart form): either can be sent again. */
	body?: string | Buffer;
	/** The body read as it comes (undici's Readable is a ByteStream), else read whole into bytes. */
	stream: boolean;
	/** Never sent again on another connection, even after a kept connection lost it before any answer. */
	once?: true;
	/** Ends the request and its connection's use: the transport's own (Timeout, cancel). */
	signal: AbortSignal;
	/** The credential's allowed domains (n8n's list), checked on every redirect hop as n8n's helper does. */
	allowedDomains?: string;
}

/** As many redirects as n8n's request helper follows. */
const MAX_REDIRECTS = 21;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** n8n's rule: a 303 turns a request into a GET, so does a 301 or 302 a POST; the body goes. */
function becomesGet(method: string, status: number): boolean {
	return (
		(status === 303 && method !== 'GET' && method !== 'HEAD') || (status < 303 && method === 'POST')
	);
}

/**
 * A kept connection the server closed while it was idle, found as a request went out on it: the socket
 * closed before any answer, and the socket had read before (undici's socket counts are the connection's,
 * so bytes read mean earlier replies; a new connection has read nothing).
 */
function lostWhileIdle(error: unknown): boolean {
	const { code, socket } = error as { code?: unknown; socket?: { bytesRead?: unknown } };
	const bytesRead = socket?.bytesRead;
	return code === 'UND_ERR_SOCKET' && typeof bytesRead === 'number' && bytesRead > 0;
}

type DispatchOptions = Parameters<Dispatcher['request']>[0];
/** What `request` of the dispatcher answers, as far as it is read here. */
interface Answer {
	statusCode: number;
	/** Names in lower case; a header sent more than once as a list. */
	headers: Record<string, string | string[] | undefined>;
	/** A Node.js Readable that also reads itself whole, or to nowhere (its connection kept). */
	body: ByteStream & { arrayBuffer(): Promise<ArrayBuffer>; dump(): Promise<unknown> };
}

/**
 * One request to one address. A request that a kept connection lost before any answer (the server closed
 * it while it was idle, as the request went out) is sent once more, on another connection, and is not an
 * attempt of the request's retries. A connection that broke after the answer began is never sent again
 * here (its body's reader reports it).
 */
async function requestOnce(
	options: DispatchOptions,
	dispatcher: Dispatcher,
	once: boolean,
): Promise<Answer> {
	return await dispatcher.request(options).catch(async (error: unknown) => {
		if (once || !lostWhileIdle(error) || (options.signal as AbortSignal).aborted === true)
			throw error;
		return await dispatcher.request(options).catch((again: unknown) => {
			throw new SentAgain(again);
		});
	});
}

/**
 * Sends a request with the `request` of n8n's dispatchers (undici's own API: no WHATWG Request, Response
 * and streams per request, so less time and far less garbage per item than global `fetch`), following
 * redirects as n8n's request helper does: at most 21; a 303 (and a 301 or 302 of a POST) goes on as a GET
 * without its body; the Authorization header only to the origin of the first request; each hop checked
 * against the credential's allowed domains here, and against n8n's SSRF rules by the dispatcher. Resolves
 * once the status and headers are in (a streamed body) or the whole body is read; throws undici's own
 * errors.
 */
export async function dispatchReply(
	request: DispatchRequest,
	dispatcherFor: (url: string) => Promise<Dispatcher | undefined>,
): Promise<FullResponse> {
	const origin = new URL(request.url).origin;
	const headers = { ...request.headers };
	let { method, url, body } = request;
	for (let hop = 0; ; hop++) {
		const dispatcher = await dispatcherFor(url);
		if (dispatcher === undefined) throw new NetworkError(url, 'UNKNOWN');
		const target = new URL(url);
		const answer = await requestOnce(
			{
				origin: target.origin,
				path: target.pathname + target.search,
				method: method as DispatchOptions['method'],
				headers,
				body,
				signal: request.signal,
			},
			dispatcher,
			request.once === true,
		);
		const location = REDIRECTS.has(answer.statusCode) ? answer.headers.location : undefined;
		if (typeof location !== 'string') {
			return {
				statusCode: answer.statusCode,
				headers: answer.headers,
				body: request.stream ? answer.body : new Uint8Array(await answer.body.arrayBuffer()),
			};
		}
		await answer.body.dump();
		if (hop === MAX_REDIRECTS) throw new NetworkError(url, 'ERR_FR_TOO_MANY_REDIRECTS');
		url = new URL(location, url).href;
		if (request.allowedDomains !== undefined) assertHopAllowed(url, request.allowedDomains);
		if (becomesGet(method, answer.statusCode)) {
			method = 'GET';
			body = undefined;
			delete headers['Content-Type'];
		}
		if (new URL(url).origin !== origin) delete headers.Authorization;
	}
}
