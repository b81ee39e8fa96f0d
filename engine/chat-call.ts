import type { IExecuteFunctions } from 'n8n-workflow';

import type { Connection } from './connection';
import { IncompleteReplyError, NetworkError } from './failures';
import type { Completion } from './protocol';
import { parseCompletion, requireFinishReason } from './reply/completion';
import { serviceErrorFrom } from './reply/error-body';
import { readEvents, wholeText } from './reply/events';
import type { StreamAssembler } from './reply/stream';
import { createStreamAssembler } from './reply/stream';
import type { ChatRequest } from './request/input';
import type { Flow } from './retry/flow';
import { withRetries } from './retry/with-retries';
import type { Outgoing } from './transport/http';
import { send } from './transport/http';
import type { ReadLimits } from './transport/read-stream';
import { openStream } from './transport/stream';

/**
 * A stream that broke after the service began to answer: the connection was lost, or nothing more came
 * within Timeout. The reply is incomplete; the text received is kept. It is not sent again: the text may
 * already be in a chat, and the service has billed it.
 */
function brokenStream(error: unknown, assembler: StreamAssembler, timeoutMs: number): unknown {
	if (!(error instanceof NetworkError) || error.code === 'ERR_CANCELED') return error;
	const { characters, content } = assembler.progress();
	if (error.code === 'ETIMEDOUT') {
		return new IncompleteReplyError(
			`The stream stopped: nothing more came within the Timeout of ${timeoutMs} ms, after ${characters} characters of the reply`,
			content,
			'silence',
		);
	}
	return new IncompleteReplyError(
		`The connection broke while the reply was streaming, after ${characters} characters: the reply is incomplete`,
		content,
		'connection',
	);
}

/**
 * Sends a request whose body asks for `stream: true` and reads the Server-Sent Events as they come,
 * passing each piece of reply text to `onText`; returns the same Completion as the non-streaming
 * reply. An error status throws the ServiceError its body describes; a 2xx JSON body (a service that
 * ignored `stream`) is read as a whole; a stream that breaks off (connection lost, or silent for
 * `outgoing.timeout` ms) or carries an error throws. Throws NetworkError when no answer came and when
 * the execution is cancelled (ERR_CANCELED).
 */
export async function sendStream(
	context: IExecuteFunctions,
	outgoing: Outgoing,
	onText?: (delta: string) => void,
): Promise<Completion> {
	const { status, headers, body } = await openStream(context, outgoing);
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
	).catch((error: unknown) => Promise.reject(brokenStream(error, assembler, outgoing.timeout)));
	return json === undefined
		? assembler.finish()
		: requireFinishReason(parseCompletion({ status, headers, text: json }));
}

/** Gives a timeout the Timeout it had, for the message. */
function withTimeout(error: unknown, timeoutMs: number): unknown {
	if (error instanceof NetworkError) error.timeoutMs = timeoutMs;
	return error;
}

/**
 * Sends one chat request, streamed or not, with the request's retries; returns the completion or
 * throws what went wrong. `flow` is shared by the requests of one execution (a Retry-After pauses all;
 * the limiter keeps the requests in flight). A stream that broke after it began is not sent again
 * (see brokenStream).
 */
export async function requestCompletion(
	context: IExecuteFunctions,
	connection: Connection,
	request: ChatRequest,
	flow: Flow,
	onText?: (delta: string) => void,
): Promise<Completion> {
	const outgoing: Outgoing = {
		method: 'POST',
		url: `${connection.baseUrl}/chat/completions`,
		body: request.body,
		timeout: request.timeout,
		credential: connection.credential,
	};
	const attempt = async () => {
		try {
			return request.stream
				? await sendStream(context, outgoing, onText)
				: requireFinishReason(parseCompletion(await send(context, outgoing)));
		} catch (error) {
			throw withTimeout(error, request.timeout);
		}
	};
	return await withRetries(attempt, request.retry, flow, context.getExecutionCancelSignal?.());
}
