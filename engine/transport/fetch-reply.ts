import { assertHopAllowed } from './allowed-domains';
import type { Dispatcher } from './n8n-dispatcher';
import type { ReplyBody } from './read-stream';
import { WebBody } from './web-body';
import { NetworkError } from '../failures/errors';

/** A reply as it came: its status, its headers (names in lower case), its body. */
export interface FetchedReply {
	statusCode: number;
	headers: Record<string, string>;
	body: ReplyBody;
}

export interface FetchRequest {
	method: string;
	url: string;
	/** Authorization included: it goes on to the same origin only. */
	headers: Record<string, string>;
	body?: string;
	/** The body read as it comes (a web stream handed over as a ByteStream), else read whole into bytes. */
	stream: boolean;
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
 * A kept connection the server closed while it was idle, found as a request went out on it: fetch failed
 * with the socket closed before any answer, and the socket had read before (undici's socket counts are
 * the connection's, so bytes read mean earlier replies; a new connection has read nothing).
 */
function lostWhileIdle(error: unknown): boolean {
	const cause = (
		error as { cause?: { code?: unknown; socket?: { bytesRead?: unknown } } } | undefined
	)?.cause;
	const bytesRead = cause?.socket?.bytesRead;
	return cause?.code === 'UND_ERR_SOCKET' && typeof bytesRead === 'number' && bytesRead > 0;
}

/**
 * One request to one address. A request that a kept connection lost before any answer (the server closed
 * it while it was idle, as the request went out) is sent once more, on another connection, and is not an
 * attempt of the request's retries. A connection that broke after the answer began is never sent again
 * here (its body's reader reports it).
 */
async function fetchOnce(
	url: string,
	init: RequestInit,
	dispatcher: Dispatcher,
): Promise<Response> {
	return await fetch(url, { ...init, dispatcher }).catch(async (error: unknown) =>
		lostWhileIdle(error) && init.signal?.aborted !== true
			? await fetch(url, { ...init, dispatcher })
			: await Promise.reject(error),
	);
}

function headersOf(response: Response): Record<string, string> {
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => (headers[name] = value));
	return headers;
}

/**
 * Sends a request through n8n's dispatchers with global `fetch`, following redirects as n8n's request
 * helper does: at most 21; a 303 (and a 301 or 302 of a POST) goes on as a GET without its body; the
 * Authorization header only to the origin of the first request; each hop checked against the credential's
 * allowed domains here, and against n8n's SSRF rules by the dispatcher. Resolves once the status and
 * headers are in (a streamed body) or the whole body is read; throws fetch's own errors.
 */
export async function fetchReply(
	request: FetchRequest,
	dispatcherFor: (url: string) => Promise<Dispatcher | undefined>,
): Promise<FetchedReply> {
	const origin = new URL(request.url).origin;
	const headers = { ...request.headers };
	let { method, url, body } = request;
	for (let hop = 0; ; hop++) {
		const dispatcher = await dispatcherFor(url);
		if (dispatcher === undefined) throw new NetworkError(url, 'UNKNOWN');
		const init = { method, headers, body, signal: request.signal, redirect: 'manual' as const };
		const response = await fetchOnce(url, init, dispatcher);
		const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
		if (location === null) {
			return {
				statusCode: response.status,
				headers: headersOf(response),
				body:
					request.stream && response.body !== null
						? new WebBody(response.body)
						: new Uint8Array(await response.arrayBuffer()),
			};
		}
		await response.body?.cancel();
		if (hop === MAX_REDIRECTS) throw new NetworkError(url, 'ERR_FR_TOO_MANY_REDIRECTS');
		url = new URL(location, url).href;
		if (request.allowedDomains !== undefined) assertHopAllowed(url, request.allowedDomains);
		if (becomesGet(method, response.status)) {
			method = 'GET';
			body = undefined;
			delete headers['Content-Type'];
		}
		if (new URL(url).origin !== origin) delete headers.Authorization;
	}
}
