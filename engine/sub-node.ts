/**
 * The sub-nodes of a vector store (Embeddings, Reranker), as the engine's front door gives them (`subNode.`):
 * their clients and requests, and what they share as n8n nodes: the hint, the log, the errors.
 *
 * The log: each call as an entry of the sub-node's log (`logged`, with `tokenUsage`); the errors: a
 * failure as the n8n error the store passes on (`failure`, marked `configuration-node`).
 */
import type {
	IDataObject,
	INode,
	INodeProperties,
	ISupplyDataFunctions,
	NodeApiError,
	NodeConnectionType,
	NodeOperationError,
} from 'n8n-workflow';

export { EmbeddingsClient } from './embeddings/client';
export { RerankClient } from './rerank/client';

import type { Connection } from './connection';
import { readConnection } from './connection';
import { checkAddedOptions } from './options/added';
import { describeProblem } from './problems/describe-problem';
import { toNodeError } from './problems/node-error';
import type { ProblemContext } from './problems/problem';
import type { InputUsage } from './reply/input-usage';
import type { Run } from './run/run';
import { startRun } from './run/start';

/** The hint n8n's own sub-nodes of a vector store show above their fields. */
export const vectorStoreHint: INodeProperties = {
	displayName:
		"This node must be connected to a vector store. <a data-action='openSelectiveNodeCreator' data-action-parameter-connectiontype='ai_vectorStore'>Insert one</a>",
	name: 'notice',
	type: 'notice',
	default: '',
	typeOptions: { containerClass: 'ndv-connection-hint-notice' },
};

/**
 * A sub-node's failure as the error its vector store shows: the message, the service's words and the fix,
 * then `note`. Marked as the sub-node's own (`configuration-node`), so that n8n names it as the node to open,
 * and an n8n error, which the vector store passes on as it is (a plain error with an HTTP status would get
 * n8n's generic words for that status instead).
 */
export function failure(
	node: INode,
	error: unknown,
	context: ProblemContext,
	note = '',
): NodeApiError | NodeOperationError {
	const problem = describeProblem(error, context);
	if (note !== '') problem.description += ` ${note}`;
	const nodeError = toNodeError(node, problem);
	nodeError.functionality = 'configuration-node';
	return nodeError;
}

/** The usage as n8n's log of a sub-node reads it (the AI log sums `tokenUsage`); none when the service sent none. */
function tokenUsage(usage: InputUsage | undefined): IDataObject {
	if (usage === undefined) return {};
	const { promptTokens, totalTokens } = usage;
	return { tokenUsage: { promptTokens, completionTokens: 0, totalTokens } };
}

/** What a call of a sub-node logs of its result: the response the store gets, and the service's usage. */
interface LoggedOutput {
	response: unknown;
	usage: InputUsage | undefined;
}

/**
 * One call of a sub-node as an entry of its log in the execution, as n8n writes its own sub-nodes' (n8n
 * logs only instances of its own LangChain classes): `input` in, then `output` of the result (its response
 * and its usage as n8n's log sums it), or the error `failed` makes of what went wrong, which is also what the
 * call throws.
 */
export async function logged<T>(
	context: ISupplyDataFunctions,
	type: NodeConnectionType,
	input: IDataObject,
	call: () => Promise<T>,
	output: (result: T) => LoggedOutput,
	failed: (error: unknown) => NodeApiError | NodeOperationError,
): Promise<T> {
	const { index } = context.addInputData(type, [[{ json: input }]]);
	try {
		const result = await call();
		const { response, usage } = output(result);
		context.addOutputData(type, index, [
			[{ json: { response, ...tokenUsage(usage) } as IDataObject }],
		]);
		return result;
	} catch (error) {
		const failure = failed(error);
		context.addOutputData(type, index, failure);
		throw failure;
	}
}

/**
 * A sub-node's client, made from its context, the credential, its run and its checked request, which its
 * `checkRequest` checks from the node's Model and Options.
 */
interface ClientClass<R, C> {
	new (context: ISupplyDataFunctions, connection: Connection, run: Run, request: R): C;
	checkRequest(model: unknown, options: Record<string, unknown>): R;
}

/**
 * What a sub-node's `supplyData` hands its vector store: its client, on the credential, with a run of its own
 * (the key's pause, pacing and in-flight cap shared with every other run on the key) and the request
 * `Client.checkRequest` checks from the node's Model and Options. A credential or an option it cannot use (an
 * option added whose expression gives nothing among them) is the error `failed` makes of it, before anything
 * is sent.
 */
export async function suppliedClient<R, C>(
	context: ISupplyDataFunctions,
	itemIndex: number,
	Client: ClientClass<R, C>,
	failed: (error: unknown, connection?: Connection) => NodeApiError | NodeOperationError,
): Promise<C> {
	let connection: Connection | undefined;
	try {
		connection = await readConnection(context);
		const options = (context.getNodeParameter('options', itemIndex, {}) ?? {}) as IDataObject;
		checkAddedOptions(
			options,
			(context.getNode().parameters.options ?? {}) as IDataObject,
			context.getInputData()[itemIndex]?.json,
		);
		const request = Client.checkRequest(
			context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
			options,
		);
		return new Client(context, connection, startRun(context, connection), request);
	} catch (error) {
		throw failed(error, connection);
	}
}
