import type { Connection } from './connection';
import type { Completion } from './protocol';
import type { Billing } from './reply/billing';
import { billingOf } from './reply/billing';
import { notForwarded } from './reply/not-forwarded';
import { readCompletion } from './reply/read-completion';
import type { ChatRequest } from './request/input';
import { withRetries } from './retry/with-retries';
import type { Observe, Run } from './run/run';
import { openReply } from './transport/http';
import type { Route } from './transport/route';

/** A completion, with the gateway's id and cost of the request that gave it, and the fields it did not forward. */
export interface Answer extends Billing {
	completion: Completion;
	/** Fields of the body the gateway that answered is documented to drop (reply/not-forwarded.ts). */
	notForwarded?: string[];
}

const tokensOf = (answer: Answer) => answer.completion.usage?.total_tokens;

/**
 * Sends one chat request on the node's route, streamed or not, with the request's retries, each attempt through the run (a
 * slot, the pause a Retry-After sets, the Token Budget); returns the completion or throws what went wrong.
 * Each attempt opens the reply (transport) and reads it (reply), streamed text handed to `onText` as it
 * comes. `signal` ends the request (the execution's cancel, the run's stop, a caller's own). A stream that
 * broke after it began is not sent again (see reply/read-completion.ts).
 */
export async function requestCompletion(
	route: Route,
	connection: Connection,
	request: ChatRequest,
	{
		run,
		signal,
		onText,
		check,
	}: { run: Run; signal: AbortSignal; onText?: (delta: string) => void; check?: () => void },
): Promise<Answer> {
	const url = `${connection.baseUrl}/chat/completions`;
	const attempt = async (observe: Observe): Promise<Answer> => {
		const reply = await openReply(route, {
			method: 'POST',
			url,
			body: request.body,
			timeout: request.timeout,
			stream: request.stream,
			connection,
			cancel: signal,
		});
		observe(reply.headers, reply.status < 300);
		const completion = await readCompletion(reply, request.stream, onText);
		return {
			completion,
			...billingOf(reply.headers, completion),
			notForwarded: notForwarded(url, reply.headers, request.body),
		};
	};
	return await withRetries(attempt, request.retry, run, {
		signal,
		tokensOf,
		check,
		model: request.body.model,
	});
}
