import type { IExecuteFunctions } from 'n8n-workflow';

import { requestCompletion } from './chat-call';
import type { Connection } from './connection';
import type { ChatRequest } from './request/input';
import type { Flow } from './retry/flow';
import type { Ask, ChatReply } from './structured/structured-reply';
import { structuredReply } from './structured/structured-reply';

/**
 * How both nodes call the service: a client holds what every request of an execution shares (n8n's
 * context, with its request helper and cancel signal; the connection; the flow, with the limiter and
 * the pause a Retry-After sets) and gives one reply per request.
 */
export class ChatClient {
	constructor(
		private readonly context: IExecuteFunctions,
		readonly connection: Connection,
		private readonly flow: Flow,
	) {}

	/**
	 * The reply to one request: whole, or streamed with each piece of text handed to `onText`, with the
	 * request's retries and rate-limit waits; a request that asks for JSON gets it parsed, checked and
	 * repaired.
	 */
	async reply(request: ChatRequest, onText?: (delta: string) => void): Promise<ChatReply> {
		const send: Ask = async (body, forward) =>
			await requestCompletion(this.context, this.connection, { ...request, body }, this.flow, forward);
		if (request.structured === undefined) return { completion: await send(request.body, onText) };
		return await structuredReply(request.body, request.structured, send, onText);
	}
}
