import type { IExecuteFunctions } from 'n8n-workflow';

import type { Job } from '../request/tool-results';
import type { ChatRequestBody } from '../request/types';
import type { Completion } from '../response/completion';
import { parseCompletion } from '../response/completion';
import type { Connection } from '../shared/connection';
import { send } from '../transport/http';
import type { PauseGate } from '../transport/pause-gate';
import { withRetries } from '../transport/retry';
import { sendStream } from '../transport/stream';

export interface JobReply {
	body: ChatRequestBody;
	completion: Completion;
}

/** Text deltas go to n8n's chat streaming (Chat Trigger or Webhook in streaming mode), when it is on. */
function chunkForwarder(context: IExecuteFunctions, itemIndex: number) {
	if (!context.isStreaming?.()) return undefined;
	let begun = false;
	return {
		onText: (delta: string) => {
			if (!begun) context.sendChunk('begin', itemIndex);
			begun = true;
			context.sendChunk('item', itemIndex, delta);
		},
		end: () => begun && context.sendChunk('end', itemIndex),
	};
}

/** Sends one job's request (streamed or not), with retries; throws what went wrong. */
export async function runJob(
	context: IExecuteFunctions,
	connection: Connection,
	job: Job,
	gate: PauseGate,
): Promise<JobReply> {
	const { request } = job;
	if (request === undefined) throw job.error;
	const outgoing = {
		method: 'POST' as const,
		url: `${connection.baseUrl}/chat/completions`,
		body: request.body,
		timeout: request.timeout,
	};
	const forwarder = request.stream ? chunkForwarder(context, job.items[0]) : undefined;
	const attempt = async () =>
		request.stream
			? await sendStream(context, outgoing, forwarder?.onText)
			: parseCompletion(await send(context, outgoing));
	const signal = context.getExecutionCancelSignal?.();
	try {
		return {
			body: request.body,
			completion: await withRetries(attempt, request.retry, gate, signal),
		};
	} finally {
		forwarder?.end();
	}
}
