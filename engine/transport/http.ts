/**
 * Bytes and statuses over n8n's own transport; no parsing. Here `openReply`, the one call that sends: it
 * returns within Timeout once the status and headers are in (a streamed reply) or the whole body;
 * `read-stream.ts`: the body as it arrives; `watch.ts`: Timeout and cancel from the send to the body's
 * end, one timer per request; `outgoing.ts`: what a request is and what sends it.
 *
 * Two routes, the same for the user. Where this n8n has it, n8n's AI transport (`dispatch-route.ts`;
 * `n8n-dispatcher.ts`: the undici dispatcher the AI node SDK's `supplyModel(..., { type: 'openai' })`
 * builds for n8n's OpenAI client, with n8n's env proxy, SSRF interceptor and certificate trust, kept per
 * egress filter and origin for the whole process, so connections stay open across items, executions and
 * agent turns; `dispatch-reply.ts`: the dispatcher's own `request` (undici's API, its body a Node.js
 * stream the reader takes as it is: far less garbage per item than global `fetch`), the credential's
 * Bearer key, redirects as n8n follows them, a request a kept connection lost before any answer sent once
 * more, which the failure's message counts: `SentAgain`). Else (n8n 1.x, 2.x before 2.16, an SDK model
 * without the dispatcher) n8n's `httpRequestWithAuthentication` (`helper-route.ts`), a new connection per
 * request. The credential's allowed domains on both (`allowed-domains.ts`); `network-error.ts`: undici's
 * codes as the system codes n8n's helper gives; and `fetch` for the credential test, which has no
 * execution context.
 */
import { refusedByN8n, toNetworkError } from './network-error';
import type { FullResponse, Outgoing, Sending, WholeReply } from './outgoing';
import type { ReadLimits, ReplyBody } from './read-stream';
import { closeUnread, readWhole } from './read-stream';
import type { Route } from './route';
import { RequestWatch } from './watch';
import type { WatchEnd } from './watch';
import { NetworkError } from '../failures/errors';

/**
 * A reply whose status and headers are in, with its body: still arriving (a stream) or read whole by n8n,
 * and the limits to read it under.
 */
export interface OpenReply {
	status: number;
	headers: Record<string, string>;
	body: ReplyBody;
	limits: ReadLimits;
}

function headerMap(headers: Record<string, unknown>): Record<string, string> {
	const map: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		map[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return map;
}

/**
 * The response, or a NetworkError once the watch ends first: no answer within Timeout (ETIMEDOUT) or the
 * cancel (ERR_CANCELED); the request is aborted then (through n8n's helper, n8n's own timer ends a request
 * that never answers, SOCKET_GRACE_MS later), and a response that comes later is closed unread. The watch goes on with a body that streams, for its reader;
 * it stops here otherwise.
 */
async function answered(
	{ pending, abort }: Sending,
	url: string,
	watch: RequestWatch,
): Promise<FullResponse> {
	const first = await new Promise<FullResponse | WatchEnd>((resolve, reject) => {
		watch.onEnd(resolve);
		pending.then(
			(response) => {
				// A body read whole is all in. A stream's headers are news: its first bytes get a whole
				// Timeout after them.
				if (ArrayBuffer.isView(response.body)) watch.stop();
				else watch.bytes();
				resolve(response);
			},
			(error: unknown) => {
				watch.stop();
				reject(error);
			},
		);
	});
	if (typeof first === 'string') {
		abort();
		pending.then(
			(late) => closeUnread(late.body as ReplyBody),
			() => undefined,
		);
		throw new NetworkError(url, first, watch.idleMs);
	}
	return first;
}

/** The origins that answered a request of this process: a reset from one of them is no sign of a wrong scheme. */
const answering = new Set<string>();

/** `https://host:port` of a URL, without parsing it (every request passes here). */
function originOf(url: string): string {
	const end = url.indexOf('/', url.indexOf('//') + 2);
	return end < 0 ? url : url.slice(0, end);
}

/**
 * Sends one request on the node's route (`route.ts`) with the credential applied: the only place that talks
 * to the service (but for the credential test, which has no execution context). Returns as soon as the
 * status and headers are in, within the request's timeout; every status is answered, not thrown. Throws
 * NetworkError when no answer came, RefusedByN8n when n8n refused to send it.
 */
export async function openReply(route: Route, outgoing: Outgoing): Promise<OpenReply> {
	const { url, timeout, cancel } = outgoing;
	try {
		const watch = new RequestWatch(timeout, cancel);
		const response = await answered(route.send(outgoing), url, watch);
		answering.add(originOf(url));
		return {
			status: response.statusCode,
			headers: headerMap(response.headers),
			body: response.body as ReplyBody,
			limits: { url, watch },
		};
	} catch (error) {
		const refused = refusedByN8n(error);
		if (refused !== undefined) throw refused;
		const network = error instanceof NetworkError ? error : toNetworkError(url, error, timeout);
		network.answeredBefore = answering.has(originOf(url));
		throw network;
	}
}

const decoder = new TextDecoder();

/** Sends one request and reads the whole answer (n8n reads it as bytes: a body it streams is read as text). */
export async function send(route: Route, outgoing: Outgoing): Promise<WholeReply> {
	const { status, headers, body, limits } = await openReply(route, outgoing);
	const bytes = ArrayBuffer.isView(body) ? body : Buffer.from(await readWhole(body, limits));
	let text: string | undefined;
	return {
		status,
		headers,
		bytes,
		get text() {
			return (text ??= decoder.decode(bytes));
		},
	};
}
