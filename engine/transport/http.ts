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
