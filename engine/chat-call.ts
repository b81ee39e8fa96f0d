import type { IExecuteFunctions } from 'n8n-workflow';

import type { Connection } from './connection';
import { ReplyError, ServiceError } from './failures';
import type { Completion } from './protocol';
import type { Billing } from './reply/billing';
import { billingOf, requestIdIn } from './reply/billing';
import { readCompletion } from './reply/read-completion';
import type { ChatRequest } from './request/input';
import type { Flow } from './retry/flow';
import { withRetries } from './retry/with-retries';
import { openReply } from './transport/http';

/** A completion, with the gateway's id and cost of the request that gave it. */
export interface Answer extends Billing {
	completion: Completion;
}

/** Marks a failure of the reply with the request id its headers named (a header wins over the message's). */
function withRequestId(error: unknown, headers: Record<string, string>): unknown {
	if (error instanceof ServiceError || error instanceof ReplyError) {
		error.requestId = requestIdIn(headers) ?? error.requestId;
	}
	return error;
}

/**
 * Sends one chat request, streamed or not, with the request's retries; returns the completion or throws
 * what went wrong. Each attempt opens the reply (transport) and reads it (reply), streamed text handed to
 * `onText` as it comes. `flow` is shared by the requests of one execution (a Retry-After pauses all; the
 * limiter keeps the requests in flight; its stop, like the execution's cancel, ends the request). A stream that broke after it began is not sent again (see
 * reply/read-completion.ts). With a Token Budget on the flow, a request is not sent once the replies so far
 * reached it; a reply's `total_tokens` count against it.
 */
export async function requestCompletion(
	context: IExecuteFunctions,
	connection: Connection,
	request: ChatRequest,
	flow: Flow,
	onText?: (delta: string) => void,
): Promise<Answer> {
	const execution = context.getExecutionCancelSignal?.();
	const cancel = execution ? AbortSignal.any([execution, flow.stopped]) : flow.stopped;
	let attempts = 0;
	const attempt = async (): Promise<Answer> => {
		if (attempts++ === 0) {
			flow.budget?.check();
			flow.sent++;
		}
		const reply = await openReply(context, {
			method: 'POST',
			url: `${connection.baseUrl}/chat/completions`,
			body: request.body,
			timeout: request.timeout,
			credential: connection.credential,
			cancel,
		});
		const completion = await readCompletion(reply, request.stream, onText).catch(
			(error: unknown) => Promise.reject(withRequestId(error, reply.headers)),
		);
		flow.budget?.spend(completion.usage?.total_tokens);
		return { completion, ...billingOf(reply.headers, completion) };
	};
	return await withRetries(attempt, request.retry, flow, cancel);
}
