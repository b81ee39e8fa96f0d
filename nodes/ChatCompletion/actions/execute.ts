import type { IDataObject, IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import { readInput } from './read-input';
import { describeProblem } from '../errors/describe-problem';
import { errorItemJson, toNodeError } from '../errors/node-error';
import { buildChatRequest } from '../request/build';
import type { Job, PreparedItem } from '../request/tool-results';
import { pendingToolCalls, planJobs, toolAnswer } from '../request/tool-results';
import type { ChatRequestBody } from '../request/types';
import type { Completion } from '../response/completion';
import { parseCompletion } from '../response/completion';
import { replyItem } from '../output/reply-item';
import { toolCallItems } from '../output/tool-call-items';
import type { Connection } from '../shared/connection';
import { connectionFrom } from '../shared/connection';
import { CREDENTIAL_TYPE, send } from '../transport/http';

/** Reads and checks one item; a problem is kept with the item, so the other items go on. */
async function prepareItem(context: IExecuteFunctions, itemIndex: number): Promise<PreparedItem> {
	try {
		const input = await readInput(context, itemIndex);
		const request = buildChatRequest(input);
		const calls = pendingToolCalls(request.body.messages);
		const answer = calls ? toolAnswer(input.toolCallId, input.toolResult, calls) : undefined;
		return { itemIndex, request, answer };
	} catch (error) {
		return { itemIndex, error };
	}
}

async function runJob(
	context: IExecuteFunctions,
	connection: Connection,
	job: Job,
): Promise<{ body: ChatRequestBody; completion: Completion }> {
	if (job.request === undefined) throw job.error;
	const reply = await send(context, {
		method: 'POST',
		url: `${connection.baseUrl}/chat/completions`,
		body: job.request.body,
		timeout: job.request.timeout,
	});
	return { body: job.request.body, completion: parseCompletion(reply) };
}

/**
 * Runs the input items: each item is one request (items answering the tool calls of one reply
 * are one request together). Replies go to the Reply output; with tools configured, replies
 * that call tools go to the Tool Calls output, one item per call. A failing item becomes an
 * error item or stops the node, per the node's On Error setting.
 */
export async function executeChatCompletion(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	let connection: Connection;
	try {
		connection = connectionFrom(await this.getCredentials(CREDENTIAL_TYPE));
	} catch (error) {
		throw toNodeError(this.getNode(), describeProblem(error, {}));
	}
	const withToolCalls = this.getNodeParameter('toolsMode', 0, 'none') !== 'none';
	const routeErrors = this.getNode().onError === 'continueErrorOutput';
	const prepared: PreparedItem[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		prepared.push(await prepareItem(this, itemIndex));
	}

	const replies: INodeExecutionData[] = [];
	const toolCalls: INodeExecutionData[] = [];
	for (const job of planJobs(prepared)) {
		const pairedItem: IPairedItemData | IPairedItemData[] =
			job.items.length === 1 ? { item: job.items[0] } : job.items.map((item) => ({ item }));
		try {
			const { body, completion } = await runJob(this, connection, job);
			if (!this.getNodeParameter('simplify', job.items[0], true)) {
				replies.push({ json: completion as IDataObject, pairedItem });
				continue;
			}
			const reply = replyItem(body, completion);
			if (withToolCalls && (reply.tool_calls as unknown[]).length > 0) {
				toolCalls.push(...toolCallItems(reply).map((json) => ({ json, pairedItem })));
			} else {
				replies.push({ json: reply, pairedItem });
			}
		} catch (error) {
			const problem = describeProblem(error, { ...connection, model: job.request?.body.model });
			for (const itemIndex of job.items) {
				const nodeError = toNodeError(this.getNode(), problem, itemIndex);
				if (!this.continueOnFail()) throw nodeError;
				replies.push({
					json: errorItemJson(problem, itemIndex),
					// With the error output on, n8n routes items that carry `error` there (keeping only its
					// message in json); the error itself keeps the HTTP code and the fix.
					...(routeErrors ? { error: nodeError } : {}),
					pairedItem: { item: itemIndex },
				});
			}
		}
	}
	return withToolCalls ? [replies, toolCalls] : [replies];
}
