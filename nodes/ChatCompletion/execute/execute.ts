import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import type { Job, PreparedItem } from './plan-jobs';
import { pendingToolCalls, planJobs, toolAnswer } from './plan-jobs';
import { readInput } from './read-input';
import { replyItem } from './reply-item';
import type { JobReply } from './run-job';
import { runJob } from './run-job';
import { toolCallItems } from './tool-call-items';
import { runPool } from '../../../engine/concurrency/pool';
import { connectionFrom } from '../../../engine/connection';
import { optionSetting } from '../../../engine/options/read';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { errorItemJson, toNodeError } from '../../../engine/problems/node-error';
import { buildChatRequest } from '../../../engine/request/build';
import { PauseGate } from '../../../engine/retry/pause-gate';
import { CREDENTIAL_TYPE } from '../../../engine/transport/http';
import { hasToolCallsOutput } from '../properties/outputs';

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

/** Node-wide settings read from the first item: the credential and the number of requests in flight. */
function nodeSettings(context: IExecuteFunctions, credentials: Record<string, unknown>) {
	const options = context.getNodeParameter('options', 0, {}) as Record<string, unknown>;
	return {
		connection: connectionFrom(credentials),
		concurrency: optionSetting(options, 'concurrency'),
		withToolCalls: hasToolCallsOutput(context.getNodeParameter('toolsMode', 0, 'none')),
		routeErrors: context.getNode().onError === 'continueErrorOutput',
	};
}

/** What one job gives: the items for the Reply and Tool Calls outputs, or what went wrong. */
type Outcome =
	| { replies: INodeExecutionData[]; toolCalls: INodeExecutionData[] }
	| { error: unknown };

/**
 * Runs the input items: each item is one request (items answering the tool calls of one reply
 * are one request together), at most Concurrency at a time. Replies go to the Reply output; with
 * tools configured, replies that call tools go to the Tool Calls output, one item per call. A
 * failing item becomes an error item or stops the node, per the node's On Error setting. The
 * output keeps the order of the input.
 */
export async function executeChatCompletion(
	this: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	let settings: ReturnType<typeof nodeSettings>;
	try {
		settings = nodeSettings(this, await this.getCredentials(CREDENTIAL_TYPE));
	} catch (error) {
		throw toNodeError(this.getNode(), describeProblem(error, {}));
	}
	const { connection, concurrency, withToolCalls, routeErrors } = settings;
	const prepared: PreparedItem[] = [];
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		prepared.push(await prepareItem(this, itemIndex));
	}
	const jobs = planJobs(prepared);
	const outcomes: Outcome[] = [];
	const gate = new PauseGate();
	const signal = this.getExecutionCancelSignal?.();
	const failFast = !this.continueOnFail();
	let failed = false;
	await runPool(
		jobs.length,
		concurrency,
		async (index) => {
			try {
				const reply = await runJob(this, connection, jobs[index], gate);
				// Mapped at once, so the raw reply is not held until every job is done.
				outcomes[index] = placeReply(this, jobs[index], reply, withToolCalls);
			} catch (error) {
				outcomes[index] = { error };
				failed = true;
			}
		},
		() => signal?.aborted === true || (failFast && failed),
	);

	const replies: INodeExecutionData[] = [];
	const toolCalls: INodeExecutionData[] = [];
	jobs.forEach((job, index) => {
		const outcome = outcomes[index];
		// Items cancelled with the execution produce nothing; those that had finished keep their reply.
		if (outcome === undefined || ('error' in outcome && signal?.aborted)) return;
		if (!('error' in outcome)) {
			replies.push(...outcome.replies);
			toolCalls.push(...outcome.toolCalls);
			return;
		}
		const problem = describeProblem(outcome.error, {
			...connection,
			model: job.request?.body.model,
		});
		for (const itemIndex of job.items) {
			const nodeError = toNodeError(this.getNode(), problem, itemIndex);
			if (failFast) throw nodeError;
			replies.push({
				json: errorItemJson(problem, itemIndex),
				// With the error output on, n8n routes items that carry `error` there (keeping only its
				// message in json); the error itself keeps the HTTP code and the fix.
				...(routeErrors ? { error: nodeError } : {}),
				pairedItem: { item: itemIndex },
			});
		}
	});
	return withToolCalls ? [replies, toolCalls] : [replies];
}

/** Puts a reply on its output: raw, simplified on Reply, or one item per call on Tool Calls. */
function placeReply(
	context: IExecuteFunctions,
	job: Job,
	{ body, completion, json }: JobReply,
	withToolCalls: boolean,
): Outcome {
	const pairedItem: IPairedItemData | IPairedItemData[] =
		job.items.length === 1 ? { item: job.items[0] } : job.items.map((item) => ({ item }));
	if (!context.getNodeParameter('simplify', job.items[0], true)) {
		return { replies: [{ json: completion as IDataObject, pairedItem }], toolCalls: [] };
	}
	const reply = replyItem(body, completion, json);
	if (withToolCalls && (reply.tool_calls as unknown[]).length > 0) {
		return { replies: [], toolCalls: toolCallItems(reply).map((json) => ({ json, pairedItem })) };
	}
	return { replies: [{ json: reply, pairedItem }], toolCalls: [] };
}
