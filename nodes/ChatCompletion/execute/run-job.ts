import type { IExecuteFunctions } from 'n8n-workflow';

import type { Job } from './plan-jobs';
import { runsAsTool } from './tool-result';
import type { ChatClient, ModelReply, protocol } from '../../../engine';
import { problems, splitReasoning, thinkSplitter } from '../../../engine';

export interface JobReply extends ModelReply {
	body: protocol.ChatRequestBody;
	/** The messages sent, as the output keeps them (images from binary data as placeholders). */
	conversation: protocol.ChatMessage[];
}

/**
 * What a streaming client (Chat Trigger or Webhook in streaming mode) receives for one item: the text as
 * it comes, then the end; or an error that says what went wrong. n8n types `sendChunk` as void but runs
 * the trigger's hook asynchronously (in queue mode it writes to Redis): a chunk that cannot be delivered
 * is logged once per item, and the reply goes on.
 */
function chatStream(context: IExecuteFunctions, itemIndex: number) {
	let begun = false;
	let warned = false;
	const send = (...chunk: Parameters<IExecuteFunctions['sendChunk']>) => {
		const delivery = context.sendChunk(...chunk) as unknown;
		if (!(delivery instanceof Promise)) return;
		delivery.catch((error: unknown) => {
			if (warned) return;
			warned = true;
			const reason = error instanceof Error ? error.message : String(error);
			context.logger.warn(
				`Chat Completion: item ${itemIndex}'s reply could not be streamed to the chat (${reason}); the reply is still returned`,
			);
		});
	};
	return {
		text: (delta: string) => {
			if (!begun) send('begin', itemIndex);
			begun = true;
			send('item', itemIndex, delta);
		},
		end: () => begun && send('end', itemIndex),
		error: (text: string) => send('error', itemIndex, text),
	};
}

/**
 * Whether the workflow streams its response to a client (Chat Trigger, Webhook in streaming mode) and this
 * node's replies go there: not when an AI Agent runs the node as a tool, whose reply is for the model.
 */
export function streamsToClient(context: IExecuteFunctions): boolean {
	return context.isStreaming?.() === true && !runsAsTool(context);
}

/** The text a chat shows for a reply that was not streamed: the answer, or the refusal. */
function replyText({ completion }: ModelReply): string {
	const message = completion.choices[0]?.message ?? {};
	const { content } = splitReasoning(message);
	if (content !== '') return content;
	return typeof message.refusal === 'string' ? message.refusal : '';
}

const ignore = () => undefined;

/**
 * Sends one job's request (streamed or not), with retries; throws what went wrong. When the workflow
 * streams its response, the client always hears of the item: the text as it streams (or, when Stream is
 * off, the whole reply as one piece), and when it fails with On Error: Continue, an error chunk with the
 * problem and the fix (with Stop Workflow, n8n sends the node's error itself).
 */
export async function runJob(
	context: IExecuteFunctions,
	client: ChatClient,
	job: Job,
	streaming: boolean,
): Promise<JobReply> {
	const itemIndex = job.items[0];
	const chat = streaming ? chatStream(context, itemIndex) : undefined;
	const { request } = job;
	/** With On Error: Continue, n8n tells a streaming client nothing of a failed item: the node does. */
	const toldToChat = (error: unknown) => {
		if (chat && context.continueOnFail() && !context.getExecutionCancelSignal?.()?.aborted) {
			const problem = problems.describeProblem(error, {
				...client.connection,
				words: client.words,
				model: request?.body.model,
			});
			// A chat user's words only: the error item keeps the whole problem.
			chat.error(problems.chatWords(problem));
		}
		return error;
	};
	try {
		if (request === undefined) throw job.error;
		// The chat gets the answer only: an inline <think> block is held back as it streams.
		const streamed = chat && request.stream ? thinkSplitter(chat.text, ignore) : undefined;
		const reply = await client.reply(request, {
			onText: streamed && ((delta) => streamed.push(delta)),
		});
		streamed?.end();
		if (chat && !request.stream) {
			const text = replyText(reply);
			if (text !== '') chat.text(text);
		}
		chat?.end();
		return { body: request.body, conversation: request.conversation, ...reply };
	} catch (error) {
		throw toldToChat(error);
	}
}
