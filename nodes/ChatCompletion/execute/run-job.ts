import type { IExecuteFunctions } from 'n8n-workflow';

import type { Job } from './plan-jobs';
import type { Connection } from '../../../engine/connection';
import type { ChatRequestBody } from '../../../engine/protocol';
import type { Flow } from '../../../engine/retry/flow';
import type { ChatReply } from '../../../engine/structured/request-json';
import { requestReply } from '../../../engine/structured/request-json';

export interface JobReply extends ChatReply {
	body: ChatRequestBody;
}

/**
 * Text deltas go to n8n's chat streaming (Chat Trigger or Webhook in streaming mode), when it is on.
 * n8n types `sendChunk` as void but runs the trigger's hook asynchronously (in queue mode it writes to
 * Redis): a chunk that cannot be delivered is logged once per item, and the reply goes on.
 */
function chunkForwarder(context: IExecuteFunctions, itemIndex: number) {
	if (!context.isStreaming?.()) return undefined;
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
		onText: (delta: string) => {
			if (!begun) send('begin', itemIndex);
			begun = true;
			send('item', itemIndex, delta);
		},
		end: () => begun && send('end', itemIndex),
	};
}

/** Sends one job's request (streamed or not), with retries; throws what went wrong. */
export async function runJob(
	context: IExecuteFunctions,
	connection: Connection,
	job: Job,
	flow: Flow,
): Promise<JobReply> {
	const { request } = job;
	if (request === undefined) throw job.error;
	const forwarder = request.stream ? chunkForwarder(context, job.items[0]) : undefined;
	try {
		const reply = await requestReply(context, connection, request, flow, forwarder?.onText);
		return { body: request.body, ...reply };
	} finally {
		forwarder?.end();
	}
}
