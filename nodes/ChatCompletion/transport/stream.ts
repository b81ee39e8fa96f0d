import type { IExecuteFunctions } from 'n8n-workflow';

import type { FullResponse, Outgoing } from './http';
import { CREDENTIAL_TYPE, headerMap, requestOptions, toNetworkError } from './http';
import type { ByteStream, ReadLimits } from './read-stream';
import { readStream } from './read-stream';
import type { Completion } from '../response/completion';
import { parseCompletion } from '../response/completion';
import { serviceErrorFrom } from '../response/error-body';
import type { StreamAssembler } from '../response/stream';
import { createStreamAssembler } from '../response/stream';

/**
 * n8n's HTTP stack closes a socket that is idle for the request's timeout (a reset, not a timeout, to
 * the reader): it gets this much longer, so that an idle stream is reported as the timeout it is.
 */
const SOCKET_GRACE_MS = 1000;

async function wholeText(body: ByteStream, limits: ReadLimits): Promise<string> {
	const pieces: string[] = [];
	await readStream(body, limits, (text) => pieces.push(text));
	return pieces.join('');
}

/**
 * Reads a 2xx body into the assembler, or as a whole when it is JSON (a service that ignored `stream`,
 * or a gateway's error): labelled JSON, or starting with `{`, which an event stream never does (it
 * starts with a field name, a comment or a blank line). Returns the JSON text, undefined for a stream.
 */
async function readEvents(
	body: ByteStream,
	limits: ReadLimits,
	labelledJson: boolean,
	assembler: StreamAssembler,
): Promise<string | undefined> {
	const pieces: string[] = [];
	let isJson: boolean | undefined = labelledJson || undefined;
	await readStream(body, limits, (text) => {
		if (isJson === false) return assembler.feed(text);
		pieces.push(text);
		if (isJson) return;
		const start = pieces.join('').trimStart();
		if (start === '') return;
		isJson = start.startsWith('{');
		if (!isJson) assembler.feed(pieces.splice(0).join(''));
	});
	return isJson ? pieces.join('') : undefined;
}

/**
 * Sends a request whose body asks for `stream: true` and reads the Server-Sent Events as they come,
 * passing each piece of reply text to `onText`; returns the same Completion as the non-streaming
 * reply. An error status throws the ServiceError its body describes; a 2xx JSON body (a service that
 * ignored `stream`) is read as a whole; a stream that breaks off or carries an error throws. Throws
 * NetworkError when no answer came, when no bytes came for `outgoing.timeout` ms (ETIMEDOUT) and
 * when the execution is cancelled (ERR_CANCELED).
 */
export async function sendStream(
	context: IExecuteFunctions,
	outgoing: Outgoing,
	onText?: (delta: string) => void,
): Promise<Completion> {
	let response: FullResponse;
	try {
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			requestOptions({ ...outgoing, timeout: outgoing.timeout + SOCKET_GRACE_MS }, 'stream'),
		)) as FullResponse;
	} catch (error) {
		throw toNetworkError(outgoing.url, error);
	}
	const status = response.statusCode;
	const headers = headerMap(response.headers);
	const body = response.body as ByteStream;
	const limits: ReadLimits = {
		url: outgoing.url,
		idleMs: outgoing.timeout,
		cancel: context.getExecutionCancelSignal?.(),
	};
	if (status < 200 || status >= 300) {
		throw serviceErrorFrom({ status, headers, text: await wholeText(body, limits) });
	}
	const assembler = createStreamAssembler({ status, onText });
	const json = await readEvents(
		body,
		limits,
		/\bjson\b/i.test(headers['content-type'] ?? ''),
		assembler,
	);
	return json === undefined ? assembler.finish() : parseCompletion({ status, headers, text: json });
}
