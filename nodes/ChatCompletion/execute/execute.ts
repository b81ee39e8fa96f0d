import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import { checkModels } from './check-models';
import { ItemParameters } from './parameters';
import type { Job, PreparedItem } from './plan-jobs';
import { itemJob, pendingToolCalls, planJobs, toolAnswer } from './plan-jobs';
import { readInput } from './read-input';
import type { ReplyImages } from './reply-images';
import { replyImages } from './reply-images';
import { replyItem } from './reply-item';
import type { JobReply } from './run-job';
import { runJob, streamsToClient } from './run-job';
import { toolCallItems } from './tool-call-items';
import { runsAsTool, toolResult } from './tool-result';
import { ChatClient, runItems } from '../../../engine';
import type { AddedBinary } from '../request/images';
import { itemRequest } from '../request/item-request';
import { hasToolCallsOutput } from '../properties/outputs';
import { WORDS } from '../words';

/**
 * The binary data of an item's output: the input item's, passed on by reference (the next Chat Completion
 * node of a loop reads the images of `messages` from it), and the data URIs of Image URLs as binary data.
 */
async function outputBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	added: AddedBinary[],
): Promise<IBinaryKeyData | undefined> {
	const binary: IBinaryKeyData = { ...context.getInputData()[itemIndex]?.binary };
	for (const { name, bytes, fileName, mimeType } of added) {
		binary[name] = await context.helpers.prepareBinaryData(bytes, fileName, mimeType);
	}
	return Object.keys(binary).length > 0 ? binary : undefined;
}

/** Reads and checks one item; a problem is kept with the item, so the other items go on. */
async function prepareItem(
	context: IExecuteFunctions,
	parameters: ItemParameters,
	itemIndex: number,
	streaming: boolean,
): Promise<PreparedItem> {
	try {
		const input = await readInput(context, parameters, itemIndex);
		const { added, ...request } = itemRequest(input, streaming);
		const calls = pendingToolCalls(request.body.messages);
		const answer = calls ? toolAnswer(input.toolCallId, input.toolResult, calls) : undefined;
		const binary = await outputBinary(context, itemIndex, added);
		return { itemIndex, request, binary, answer };
	} catch (error) {
		return { itemIndex, error };
	}
}

/**
 * Runs the input items (`runItems`): each item is one request (items answering the tool calls of one reply are
 * one request together). With On Error: Stop Workflow every item is read and checked before anything is sent
 * (the models items name with an expression too, against the key's list), and one invalid item stops the node
 * with nothing sent. Replies go to the Reply output; with tools configured, replies that call tools go to the
 * Tool Calls output, one item per call. A failing item becomes an error item or stops the node, per On Error.
 */
export async function executeChatCompletion(
	this: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	const asTool = runsAsTool(this);
	const streaming = streamsToClient(this);
	const withToolCalls =
		hasToolCallsOutput(this.getNodeParameter('toolsMode', 0, 'none')) && !asTool;
	const placing = { withToolCalls, asTool };
	return await runItems<Job>(this, {
		words: WORDS,
		outputs: withToolCalls ? 2 : 1,
		streaming,
		asTool,
		start: (connection, run) => {
			const client = new ChatClient(this, connection, run, WORDS);
			const parameters = new ItemParameters(this);
			const answers: PreparedItem[] = [];
			return {
				read: async (itemIndex) => {
					const item = await prepareItem(this, parameters, itemIndex, streaming);
					if (item.answer === undefined) return itemJob(item);
					answers.push(item);
					return undefined;
				},
				rest: () => planJobs(answers),
				check: async (jobs) => await checkModels(this, connection, jobs, streaming),
				send: async (job) => {
					const reply = await runJob(this, client, job, streaming);
					const images = await replyImages(this, reply.completion);
					return placeReply(job, reply, parameters, placing, images);
				},
			};
		},
	});
}

/**
 * Puts a reply on its output: raw, simplified on Reply, or one item per call on Tool Calls. The items carry
 * the job's binary data, which the placeholders of `messages` name; an agent's tool result carries none.
 */
function placeReply(
	job: Job,
	{ body, conversation, completion, json, ...notes }: JobReply,
	parameters: ItemParameters,
	{ withToolCalls, asTool }: { withToolCalls: boolean; asTool: boolean },
	images?: ReplyImages,
): INodeExecutionData[][] {
	const pairedItem: IPairedItemData | IPairedItemData[] =
		job.items.length === 1 ? { item: job.items[0] } : job.items.map((item) => ({ item }));
	const binary = images === undefined ? job.binary : { ...job.binary, ...images.binary };
	const output = (item: IDataObject): INodeExecutionData =>
		binary === undefined ? { json: item, pairedItem } : { json: item, binary, pairedItem };
	const placed = (replies: INodeExecutionData[], toolCalls: INodeExecutionData[] = []) =>
		withToolCalls ? [replies, toolCalls] : [replies];
	if (!parameters.get('simplify', job.items[0], true)) {
		return placed([output(completion as IDataObject)]);
	}
	const reply = replyItem({ ...body, messages: conversation }, completion, json, notes);
	if (images !== undefined) reply.images = images.images;
	if (asTool) return placed([{ json: toolResult(reply), pairedItem }]);
	if (withToolCalls && (reply.tool_calls as unknown[]).length > 0) {
		return placed([], toolCallItems(reply).map(output));
	}
	return placed([output(reply)]);
}
