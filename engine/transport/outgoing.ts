/** What a request is and what sends it, as both routes (`helper-route.ts`, `dispatch-route.ts`) take it. */
import type { IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';

import type { EgressContext } from './n8n-dispatcher';
import type { Connection } from '../connection';

/**
 * What sends a request: a node's context (of a node, a sub-node, or the editor's list search) with n8n's
 * request helper, and on n8n 2.x its egress filter (for n8n's own AI transport).
 */
export type Sender = Pick<IExecuteFunctions, 'getNode'> & {
	helpers: Pick<IExecuteFunctions['helpers'], 'httpRequestWithAuthentication' | 'httpRequest'> &
		EgressContext['helpers'];
};

/** What came back over HTTP, whatever the status: the parser decides what it means. */
export interface HttpReply {
	status: number;
	headers: Record<string, string>;
	text: string;
}

/**
 * A reply read whole: its bytes (speech's audio), and their text (decoded as UTF-8 when first read: the
 * readers of JSON read only that).
 */
export interface WholeReply extends HttpReply {
	bytes: Uint8Array;
}

/** A body sent as it is, under its own Content-Type (a multipart form, made whole so that a retry sends it again). */
export interface RawBody {
	contentType: string;
	body: Buffer;
}

/** One request as the engine asks for it, whichever route carries it. */
export interface Outgoing {
	method: IHttpRequestMethods;
	url: string;
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as it is instead (no `body` then). */
	raw?: RawBody;
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
	/**
	 * Sent without the key (a URL of another origin than the Base URL's): no Authorization, and of the Extra
	 * Headers only those that carry no secret (`withoutSecrets`).
	 */
	keyless?: true;
	/**
	 * Sent at most once, even when a kept connection is lost before any answer (a video job's submit: the
	 * service may have accepted it, and a second one is paid again).
	 */
	once?: true;
}

/** The response as either route hands it over: the status, the headers, the body (bytes or a stream). */
export interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** A request on its way, and what ends it before its answer is in (its Timeout or cancel came first). */
export interface Sending {
	pending: Promise<FullResponse>;
	abort: () => void;
}

/** Sends a GET to `path` (under the Base URL, or the site root) and reads its reply with `read`. */
export type PathGet = <T>(
	at: { path: string; root?: true },
	read: (reply: HttpReply) => T,
) => Promise<T>;
