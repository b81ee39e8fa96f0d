import type { IExecuteFunctions } from 'n8n-workflow';

import type { Connection } from './connection';
import type { Completion } from './protocol';
import { readCompletion } from './reply/read-completion';
import type { ChatRequest } from './request/input';
import type { Flow } from './retry/flow';
import { withRetries } from './retry/with-retries';
import { openReply } from './transport/http';

/**
 * Sends one chat request, streamed or not, with the request's retries; returns the completion or throws
 * what went wrong. Each attempt opens the reply (transport) and reads it (reply), streamed text handed to
 * `onText` as it comes. `flow` is shared by the requests of one execution (a Retry-After pauses all; the
 * limiter keeps the requests in flight; its stop, like the execution's cancel, ends the request). A stream that broke after it began is not sent again (see
 * reply/read-completion.ts).
 */
export async function requestCompletion(
	context: IExecuteFunctions,
	connection: Connection,
	request: ChatRequest,
	flow: Flow,
	onText?: (delta: string) => void,
): Promise<Completion> {
	const execution = context.getExecutionCancelSignal?.();
	const cancel = execution ? AbortSignal.any([execution, flow.stopped]) : flow.stopped;
	let attempts = 0;
	const attempt = async () => {
		if (attempts++ === 0) flow.sent++;
		return await readCompletion(
			await openReply(context, {
				method: 'POST',
				url: `${connection.baseUrl}/chat/completions`,
				body: request.body,
				timeout: request.timeout,
				credential: connection.credential,
				cancel,
			}),
			request.stream,
			onText,
		);
	};
	return await withRetries(attempt, request.retry, flow, cancel);
}
