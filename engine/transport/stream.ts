import type { IExecuteFunctions } from 'n8n-workflow';

import type { Outgoing } from './http';
import { headerMap, sendWithCredential } from './http';
import type { ByteStream } from './read-stream';

/**
 * n8n's HTTP stack closes a socket that is idle for the request's timeout (a reset, not a timeout, to
 * the reader): it gets this much longer, so that an idle stream is reported as the timeout it is.
 */
const SOCKET_GRACE_MS = 1000;

/** A response whose body is still arriving. */
export interface OpenStream {
	status: number;
	headers: Record<string, string>;
	body: ByteStream;
}

/**
 * Sends a request with the credential applied by n8n and returns as soon as the status and headers are
 * in; the body is read with `readStream`. Never throws for an HTTP status; throws NetworkError when no
 * answer came.
 */
export async function openStream(
	context: IExecuteFunctions,
	outgoing: Outgoing,
): Promise<OpenStream> {
	const response = await sendWithCredential(
		context,
		{ ...outgoing, timeout: outgoing.timeout + SOCKET_GRACE_MS },
		'stream',
	);
	return {
		status: response.statusCode,
		headers: headerMap(response.headers),
		body: response.body as ByteStream,
	};
}
