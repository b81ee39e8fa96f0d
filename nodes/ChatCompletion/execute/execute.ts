import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { jobsWithUnknownModels, modelFromExpression } from './check-models';
import { invalidItemsError } from './invalid-items';
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
import { runsAsTool, toolFailure, toolFailureMessage, toolResult } from './tool-result';
import type { Connection, Run } from '../../../engine';
import { ChatClient, problems, readConnection, startRun } from '../../../engine';
import type { AddedBinary } from '../request/images';
import { itemRequest } from '../request/item-request';
import { hasToolCallsOutput } from '../properties/outputs';
import { WORDS } from '../words';

/** Reading items is synchronous work in n8n: after this many ms the event loop gets a turn, so requests leave. */
const READ_SLICE_MS = 10;

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

/** Node-wide settings, read once per execution: the credential, the run, the outputs, On Error. */
async function nodeSettings(context: IExecuteFunctions) {
	const connection = await readConnection(context);
	return {
		connection,
		run: startRun(context, connection),
		withToolCalls: hasToolCallsOutput(context.getNodeParameter('toolsMode', 0, 'none')),
		asTool: runsAsTool(context),
		routeErrors: context.getNode().onError === 'continueErrorOutput',
		streaming: streamsToClient(context),
	};
}

/** What one job gives: the items for the Reply and Tool Calls outputs, or what went wrong. */
type Outcome =
	| { replies: INodeExecutionData[]; toolCalls: INodeExecutionData[] }
	| { error: unknown; stopped?: true };

/** Reads every item, in order, handing each to `take` as it is read; yields to the event loop now and then. */
async function readItems(
	count: number,
	prepare: (itemIndex: number) => Promise<PreparedItem>,
	take: (item: PreparedItem) => void,
): Promise<void> {
	let sliceStart = Date.now();
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		take(await prepare(itemIndex));
		if (Date.now() - sliceStart >= READ_SLICE_MS) {
			await sleep(0);
			sliceStart = Date.now();
		}
	}
}

/**
 * Runs the input items: each item is one request (items answering the tool calls of one reply are one
 * request together). With On Error: Stop Workflow every item is read and checked before anything is sent,
 * and one invalid item stops the node with nothing sent; in the Continue modes each item is sent as soon as
 * it is read. Requests in flight follow Concurrency (Auto by default). Replies go to the Reply output; with
 * tools configured, replies that call tools go to the Tool Calls output, one item per call. A failing item
 * becomes an error item or stops the node, per On Error. The output keeps the order of the input.
 */
export async function executeChatCompletion(
	this: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	let settings: Awaited<ReturnType<typeof nodeSettings>>;
	try {
		settings = await nodeSettings(this);
	} catch (error) {
		const problem = problems.describeProblem(error, {
			words: WORDS,
			streaming: streamsToClient(this),
		});
		// On Error: Continue, every item gets the credential's failure, as a key the service refused does.
		if (this.continueOnFail() && !runsAsTool(this)) return everyItemFailed(this, problem);
		// Run as an agent tool, the message is all the model gets: it carries the fix too.
		const message = runsAsTool(this) ? toolFailureMessage(problem) : problem.message;
		throw problems.toNodeError(this.getNode(), { ...problem, message });
	}
	const { connection, run, withToolCalls, routeErrors, asTool, streaming } = settings;
	const placing = { withToolCalls: withToolCalls && !asTool, asTool };
	const client = new ChatClient(this, connection, run, WORDS);
	const parameters = new ItemParameters(this);
	const failFast = !this.continueOnFail();
	const signal = this.getExecutionCancelSignal?.();
	const jobs: Job[] = [];
	const outcomes: Array<Promise<Outcome>> = [];
	const start = (job: Job) => {
		jobs.push(job);
		const send = async (): Promise<Outcome> => {
			try {
				// Mapped at once, so the raw reply is not held until every job is done.
				const reply = await runJob(this, client, job, streaming);
				const images = await replyImages(this, reply.completion);
				return placeReply(job, reply, parameters, placing, images);
			} catch (error) {
				if (run.stoppedBy(error)) return { error, stopped: true };
				// With Stop Workflow, the first failure stops the spending: no request starts, those in flight end
				// (their replies would be thrown away with the run).
				if (failFast) run.stop();
				return { error };
			}
		};
		outcomes.push(run.admit(send));
	};

	const answers: PreparedItem[] = [];
	const held: PreparedItem[] = [];
	const prepare = async (itemIndex: number) =>
		await prepareItem(this, parameters, itemIndex, streaming);
	await readItems(this.getInputData().length, prepare, (item) => {
		if (item.answer !== undefined) answers.push(item);
		else if (failFast) held.push(item);
		else start(itemJob(item));
	});
	const grouped = planJobs(answers);
	if (failFast) {
		const planned = planJobs(held).concat(grouped);
		let invalid = planned.filter((job) => job.error !== undefined);
		// Items that name their own model: every model the batch will ask is checked before anything is sent.
		if (invalid.length === 0 && planned.length > 1 && modelFromExpression(this)) {
			invalid = await jobsWithUnknownModels(this, connection, planned).catch((error: unknown) => {
				// The key's list was refused for the key itself (a wrong key, no balance): nothing is sent.
				const problem = problems.describeProblem(error, { ...connection, words: WORDS, streaming });
				problem.description += ` Nothing was sent: the check of the batch's models before it (GET /models) got this answer.`;
				throw problems.toNodeError(this.getNode(), problem);
			});
		}
		if (invalid.length > 0) {
			const context = { ...connection, words: WORDS, streaming };
			if (!asTool) throw invalidItemsError(this.getNode(), invalid, context);
			// An agent's tool call is one item: the model gets what is wrong and the fix, no item number.
			const problem = problems.describeProblem(invalid[0].error, context);
			throw toolFailure(this.getNode(), problem);
		}
		planned.sort((a, b) => a.items[0] - b.items[0]).forEach(start);
	} else {
		grouped.forEach(start);
	}
	const settled = await Promise.all(outcomes);
	return collect(this, jobs, settled, {
		connection,
		run,
		failFast: failFast || asTool,
		routeErrors,
		withToolCalls: placing.withToolCalls,
		asTool,
		signal,
		streaming,
	});
}

/** The node's outputs from every job's outcome, in the order of the input items. */
function collect(
	context: IExecuteFunctions,
	jobs: Job[],
	outcomes: Outcome[],
	settings: {
		connection: Connection;
		run: Run;
		failFast: boolean;
		routeErrors: boolean;
		withToolCalls: boolean;
		asTool: boolean;
		signal?: AbortSignal;
		streaming: boolean;
	},
): INodeExecutionData[][] {
	const { connection, run, failFast, routeErrors, withToolCalls, asTool, signal, streaming } =
		settings;
	const order = jobs.map((_, index) => index).sort((a, b) => jobs[a].items[0] - jobs[b].items[0]);
	const replies: INodeExecutionData[] = [];
	const toolCalls: INodeExecutionData[] = [];
	for (const index of order) {
		const job = jobs[index];
		const outcome = outcomes[index];
		if (!('error' in outcome)) {
			replies.push(...outcome.replies);
			toolCalls.push(...outcome.toolCalls);
			continue;
		}
		// Items cancelled with the execution, or cut short when a failure stopped it, produce nothing.
		if (signal?.aborted || outcome.stopped) continue;
		const problem = problems.describeProblem(outcome.error, {
			...connection,
			words: WORDS,
			model: job.request?.body.model,
			streaming,
		});
		if (failFast && run.stopped && jobs.length > 1) {
			const answered = jobs
				.filter((_, other) => !('error' in outcomes[other]))
				.reduce((count, other) => count + other.items.length, 0);
			problem.description += ` ${run.stopNote(answered)}`;
		}
		if (asTool) {
			throw toolFailure(context.getNode(), problem);
		}
		for (const itemIndex of job.items) {
			if (failFast) throw problems.toNodeError(context.getNode(), problem, itemIndex);
			replies.push(problems.errorItem(context, problem, itemIndex, routeErrors));
		}
	}
	return withToolCalls ? [replies, toolCalls] : [replies];
}

/** Every input item's error item, when the node cannot run at all (its credential) and On Error continues. */
function everyItemFailed(
	context: IExecuteFunctions,
	problem: problems.Problem,
): INodeExecutionData[][] {
	const routeErrors = context.getNode().onError === 'continueErrorOutput';
	const items = context
		.getInputData()
		.map((_, itemIndex) => problems.errorItem(context, problem, itemIndex, routeErrors));
	return hasToolCallsOutput(context.getNodeParameter('toolsMode', 0, 'none'))
		? [items, []]
		: [items];
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
): Outcome {
	const pairedItem: IPairedItemData | IPairedItemData[] =
		job.items.length === 1 ? { item: job.items[0] } : job.items.map((item) => ({ item }));
	const binary = images === undefined ? job.binary : { ...job.binary, ...images.binary };
	const output = (item: IDataObject): INodeExecutionData =>
		binary === undefined ? { json: item, pairedItem } : { json: item, binary, pairedItem };
	if (!parameters.get('simplify', job.items[0], true)) {
		return { replies: [output(completion as IDataObject)], toolCalls: [] };
	}
	const reply = replyItem({ ...body, messages: conversation }, completion, json, notes);
	if (images !== undefined) reply.images = images.images;
	if (asTool) return { replies: [{ json: toolResult(reply), pairedItem }], toolCalls: [] };
	if (withToolCalls && (reply.tool_calls as unknown[]).length > 0) {
		return { replies: [], toolCalls: toolCallItems(reply).map(output) };
	}
	return { replies: [output(reply)], toolCalls: [] };
}
