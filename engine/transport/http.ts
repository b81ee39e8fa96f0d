import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { allowedDomainsOf } from './allowed-domains';
import { fetchReply } from './fetch-reply';
import { n8nDispatcher } from './n8n-dispatcher';
import type { EgressContext } from './n8n-dispatcher';
import { refusedByN8n, toNetworkError } from './network-error';
import type { ReadLimits, ReplyBody } from './read-stream';
import { closeUnread, readWhole } from './read-stream';
import { RequestWatch } from './watch';
import type { Connection } from '../connection';
import { authorization } from '../connection';
import { NetworkError } from '../failures/errors';

/**
 * What sends a request: a node's context (of a node, a sub-node, or the editor's list search) with n8n's
 * request helper, and on n8n 2.x its egress filter (for n8n's own AI transport).
 */
export type Sender = Pick<IExecuteFunctions, 'getNode'> & {
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequestWithAuthentication'> &
		EgressContext['helpers'];
};

/** The one credential type this package defines. */
export const CREDENTIAL_TYPE = 'chatCompletionsApi';

/** What came back over HTTP, whatever the status: the parser decides what it means. */
export interface HttpReply {
	status: number;
	headers: Record<string, string>;
	text: string;
}

export interface Outgoing {
	method: IHttpRequestMethods;
	url: string;
	body?: unknown;
	/** Milliseconds to wait for the answer; while a body streams in, for its next bytes. */
	timeout: number;
	/**
	 * Whether the reply is read as it comes (a streamed chat reply): n8n hands over the body as a stream.
	 * Otherwise n8n reads the body whole, and Timeout is the wait for all of it.
	 */
	stream?: boolean;
	/**
	 * The credential's Extra Headers, sent with the request, and the credential n8n decrypted for this
	 * execution (n8n reads it again when absent).
	 */
	connection?: Pick<Connection, 'extraHeaders' | 'credential'>;
	/** Ends the request (ERR_CANCELED): the execution's cancel, and its stop after a failure. */
	cancel?: AbortSignal;
}

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

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** A request on its way, and what ends it before its answer is in (its Timeout or cancel came first). */
interface Sending {
	pending: Promise<FullResponse>;
	abort: () => void;
}

function headerMap(headers: Record<string, unknown>): Record<string, string> {
	const map: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		map[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return map;
}

/**
 * n8n's HTTP stack closes a socket that is idle for the request's timeout (a reset, not a timeout, to the
 * reader): it gets this much longer, so that the reader's own timers (the wait for the answer, then for each
 * next bytes) report a timeout as the timeout it is.
 */
const SOCKET_GRACE_MS = 1000;

/**
 * n8n's request options for `outgoing`: every status is answered, not thrown; the body as a stream when it
 * is read as it comes, else as bytes (n8n's HTTP stack hands a stream over through an async generator of its
 * own: for a reply read whole that was a seventh of a batch's CPU time).
 */
export function requestOptions(outgoing: Outgoing, allowedDomains?: string): IHttpRequestOptions {
	return {
		method: outgoing.method,
		url: outgoing.url,
		// Extra Headers cannot name Content-Type (nor Authorization, which n8n adds from the credential).
		headers: {
			Accept: 'application/json',
			...outgoing.connection?.extraHeaders,
			...(outgoing.body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: outgoing.body === undefined ? undefined : JSON.stringify(outgoing.body),
		encoding: outgoing.stream ? 'stream' : 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: outgoing.timeout + SOCKET_GRACE_MS,
		...(allowedDomains === undefined ? {} : { allowedDomains }),
	};
}

/** The credential as n8n's request helper takes it, made once per credential: `getNode` copies the whole node. */
const helperCredentials = new WeakMap<
	ICredentialDataDecryptedObject,
	IAdditionalCredentialOptions
>();

/** The credential already decrypted, as n8n's request helper takes it, with the node's id and name of it. */
function decrypted(
	context: Sender,
	data: ICredentialDataDecryptedObject | undefined,
): IAdditionalCredentialOptions | undefined {
	if (data === undefined) return undefined;
	let options = helperCredentials.get(data);
	if (options === undefined) {
		const { id, name } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
		options = { credentialsDecrypted: { id: id ?? '', name, type: CREDENTIAL_TYPE, data } };
		helperCredentials.set(data, options);
	}
	return options;
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
 * n8n's request helper takes its abort signal from the context it is called on (the execution's cancel):
 * called on a context that gives `cancel` instead, the request itself ends when the run stops or a model
 * call ends, not only the wait for it.
 */
function endedBy<C extends object>(context: C, cancel: AbortSignal | undefined): C {
	if (cancel === undefined) return context;
	const own = Object.create(context) as C & { getExecutionCancelSignal: () => AbortSignal };
	own.getExecutionCancelSignal = () => cancel;
	return own;
}

/** Through n8n's request helper: n8n applies the credential; a new connection for every request. */
function viaHelper(context: Sender, outgoing: Outgoing, allowedDomains?: string): Sending {
	// Every n8n context a node is given can send: the helper's `this` type names them all.
	const pending = context.helpers.httpRequestWithAuthentication.call(
		endedBy(context, outgoing.cancel) as IExecuteFunctions,
		CREDENTIAL_TYPE,
		requestOptions(outgoing, allowedDomains),
		decrypted(context, outgoing.connection?.credential),
	) as Promise<FullResponse>;
	return { pending, abort: () => undefined };
}

/**
 * Whether `fetch` refused the port itself: the Fetch standard bars some ports (6000, 5060, 9 and others)
 * that n8n's helper connects to.
 */
function barredPort(error: unknown): boolean {
	return (error as { cause?: { message?: unknown } } | undefined)?.cause?.message === 'bad port';
}

/**
 * Through n8n's own AI transport (`n8n-dispatcher.ts`) with global `fetch`: connections kept open per
 * origin, the credential applied as its `authenticate` does. A port `fetch` bars goes through the helper.
 */
function viaFetch(
	context: Sender,
	outgoing: Outgoing,
	credential: ICredentialDataDecryptedObject,
	allowedDomains: string | undefined,
): Sending {
	const ended = new AbortController();
	const { headers, body } = requestOptions(outgoing);
	const pending = fetchReply(
		{
			method: outgoing.method,
			url: outgoing.url,
			headers: {
				...(headers as Record<string, string>),
				Authorization: authorization(credential),
			},
			body: body as string | undefined,
			stream: outgoing.stream === true,
			signal: ended.signal,
			allowedDomains,
		},
		async (url) => await n8nDispatcher(context, url),
	).catch(async (error: unknown) =>
		barredPort(error)
			? await viaHelper(context, outgoing, allowedDomains).pending
			: await Promise.reject(error),
	);
	return { pending, abort: () => ended.abort() };
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
			? viaFetch(context, outgoing, credential, allowedDomains)
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
