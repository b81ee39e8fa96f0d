import type { IExecuteFunctions } from 'n8n-workflow';

import type { Connection } from './connection';
import type { Completion } from './protocol';
import { parseCompletion, requireFinishReason } from './reply/completion';
import { serviceErrorFrom } from './reply/error-body';
import { readEvents, wholeText } from './reply/events';
import { createStreamAssembler } from './reply/stream';
import type { ChatRequest } from './request/input';
import type { Flow } from './retry/flow';
import { withRetries } from './retry/with-retries';
import type { Outgoing } from './transport/http';
import { send } from './transport/http';
import type { ReadLimits } from './transport/read-stream';
import { openStream } from './transport/stream';

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
	);
	return json === undefined
		? assembler.finish()
		: requireFinishReason(parseCompletion({ status, headers, text: json }));
}

/**
 * Sends one chat request, streamed or not, with the request's retries; returns the completion or
 * throws what went wrong. `flow` is shared by the requests of one execution (a Retry-After pauses all;
 * the limiter keeps the requests in flight).
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
	};
	const attempt = async () =>
		request.stream
			? await sendStream(context, outgoing, onText)
			: requireFinishReason(parseCompletion(await send(context, outgoing)));
	return await withRetries(attempt, request.retry, flow, context.getExecutionCancelSignal?.());
}
