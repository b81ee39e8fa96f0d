import type { Connection } from './connection';
import { ReplyError, ServiceError } from './failures/errors';
import type { Completion } from './protocol';
import type { Billing } from './reply/billing';
import { billingOf, requestIdIn } from './reply/billing';
import { readCompletion } from './reply/read-completion';
import type { ChatRequest } from './request/input';
import { withRetries } from './retry/with-retries';
import type { Observe, Run } from './run/run';
import type { Sender } from './transport/outgoing';
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

const tokensOf = (answer: Answer) => answer.completion.usage?.total_tokens;

/**
 * Sends one chat request, streamed or not, with the request's retries, each attempt through the run (a
 * slot, the pause a Retry-After sets, the Token Budget); returns the completion or throws what went wrong.
 * Each attempt opens the reply (transport) and reads it (reply), streamed text handed to `onText` as it
 * comes. `signal` ends the request (the execution's cancel, the run's stop, a caller's own). A stream that
 * broke after it began is not sent again (see reply/read-completion.ts).
 */
export async function requestCompletion(
	context: Sender,
	connection: Connection,
	request: ChatRequest,
	{
		run,
		signal,
		onText,
		check,
	}: { run: Run; signal: AbortSignal; onText?: (delta: string) => void; check?: () => void },
): Promise<Answer> {
	const attempt = async (observe: Observe): Promise<Answer> => {
		const reply = await openReply(context, {
			method: 'POST',
			url: `${connection.baseUrl}/chat/completions`,
			body: request.body,
			timeout: request.timeout,
			stream: request.stream,
			connection,
			cancel: signal,
		});
		observe(reply.headers);
		const completion = await readCompletion(reply, request.stream, onText).catch((error: unknown) =>
			Promise.reject(withRequestId(error, reply.headers)),
		);
		return { completion, ...billingOf(reply.headers, completion) };
	};
	return await withRetries(attempt, request.retry, run, {
		signal,
		tokensOf,
		check,
		model: request.body.model,
	});
}
