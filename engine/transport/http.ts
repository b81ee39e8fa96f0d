import type { IExecuteFunctions } from 'n8n-workflow';

import { allowedDomainsOf } from './allowed-domains';
import { viaDispatcher } from './dispatch-route';
import { viaHelper } from './helper-route';
import { n8nDispatcher } from './n8n-dispatcher';
import { refusedByN8n, toNetworkError } from './network-error';
import type { FullResponse, HttpReply, Outgoing, Sender, Sending } from './outgoing';
import type { ReadLimits, ReplyBody } from './read-stream';
import { closeUnread, readWhole } from './read-stream';
import { RequestWatch } from './watch';
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
	return await new Promise<FullResponse>((resolve, reject) => {
		watch.onEnd((end) => {
			abort();
			pending.then(
				(late) => closeUnread(late.body as ReplyBody),
				() => undefined,
			);
			reject(new NetworkError(url, end, watch.idleMs));
		});
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
}

/**
 * Sends one request with the credential applied, through n8n's own AI transport where this n8n has it
 * (connections kept open) and else through n8n's request helper: either way n8n's proxy settings, SSRF
 * protection and certificate trust, and the credential's allowed domains. The only place that talks to
 * the service (but for the credential test, which has no execution context). Returns as soon as the
 * status and headers are in, within the request's timeout; every status is answered, not thrown. Throws
 * NetworkError when no answer came, RefusedByN8n when n8n refused to send it.
 */
export async function openReply(context: Sender, outgoing: Outgoing): Promise<OpenReply> {
	const { url, timeout, cancel } = outgoing;
	const credential = outgoing.connection?.credential;
	try {
		const allowedDomains =
			credential === undefined ? undefined : allowedDomainsOf(context, credential, url);
		const viaN8nAi = credential !== undefined && (await n8nDispatcher(context, url)) !== undefined;
		const watch = new RequestWatch(
			timeout,
			cancel ?? (context as Partial<IExecuteFunctions>).getExecutionCancelSignal?.(),
		);
		const sending = viaN8nAi
			? viaDispatcher(context, outgoing, credential, allowedDomains)
			: viaHelper(context, outgoing, allowedDomains);
		const response = await answered(sending, url, watch);
		return {
			status: response.statusCode,
			headers: headerMap(response.headers),
			body: response.body as ReplyBody,
			limits: { url, watch },
		};
	} catch (error) {
		throw (
			refusedByN8n(error) ??
			(error instanceof NetworkError ? error : toNetworkError(url, error, timeout))
		);
	}
}

/** Sends one request and reads the whole answer as text. */
export async function send(context: Sender, outgoing: Outgoing): Promise<HttpReply> {
	const { status, headers, body, limits } = await openReply(context, outgoing);
	return { status, headers, text: await readWhole(body, limits) };
}
