/**
 * A sub-node of this package through n8n-core's engine: the probe (`dev/n8n-core/probe-node.cts`) takes what
 * the sub-node supplies from its AI input, as n8n's root nodes do, and a script calls it the way they do. The run gives the script's output, the error, and n8n's log of the sub-node.
 */
import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRunData,
	AINodeConnectionType,
} from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { EngineError } from '../../dev/n8n-core/harness.cts';
import { probeNode } from '../../dev/n8n-core/probe-node.cts';

/** The sub-node under test: its node type, its name in the workflow, the connection it supplies. */
export interface SubNode {
	type: string;
	name: string;
	node: INodeType;
	connection: AINodeConnectionType;
}

export interface SubNodeRun {
	output?: IDataObject;
	error?: EngineError;
	/** n8n's log of the sub-node: per call, what went in and what came out (or the error). */
	log: Array<{ input?: IDataObject; output?: IDataObject; error?: EngineError }>;
}

/** Runs Probe <- the sub-node through n8n-core's engine, on a Chat Completions API credential. */
export async function runSubNode<T>(
	subNode: SubNode,
	{
		apiKey,
		baseUrl,
		credential = {},
		model,
		options = {},
		script,
		store = {},
	}: {
		apiKey: string;
		baseUrl: string;
		/** The credential's other fields (e.g. Extra Headers). */
		credential?: IDataObject;
		model: string;
		options?: INodeParameters;
		/** Called with the sub-node and the probe's Prompt resolved for an item. */
		script: (supplied: T, prompt: (itemIndex: number) => unknown) => Promise<IDataObject>;
		/** The probe as a vector store: its Prompt (e.g. an expression) and its input items. */
		store?: { prompt?: string; items?: INodeExecutionData[] };
	},
): Promise<SubNodeRun> {
	const engine = createEngine({
		nodeTypes: {
			[subNode.type]: subNode.node,
			'test.probe': probeNode<T>(
				subNode.connection,
				async (supplied, _items, prompt) => await script(await supplied(), prompt),
			),
		},
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey, baseUrl, ...credential } },
	});
	const nodes: INode[] = [
		{
			id: 'p',
			name: 'Probe',
			type: 'test.probe',
			typeVersion: 1,
			position: [0, 0],
			parameters: store.prompt === undefined ? {} : { prompt: store.prompt },
		},
		{
			id: 's',
			name: subNode.name,
			type: subNode.type,
			typeVersion: 1,
			position: [0, 200],
			parameters: { model: { __rl: true, mode: 'id', value: model }, options },
		},
	];
	const connections: IConnections = {
		[subNode.name]: {
			[subNode.connection]: [[{ node: 'Probe', type: subNode.connection, index: 0 }]],
		},
	};
	const { runData, error } = await engine.runWorkflow({
		workflow: { nodes, connections },
		startNode: 'Probe',
		items: store.items,
	});
	return {
		output: runData.Probe?.[0]?.data?.main[0]?.[0]?.json,
		error,
		log: subNodeLog(runData, subNode),
	};
}

function subNodeLog(runData: IRunData, { name, connection }: SubNode): SubNodeRun['log'] {
	return (runData[name] ?? []).map((task) => ({
		input: task.inputOverride?.[connection]?.[0]?.[0]?.json,
		output: task.data?.[connection]?.[0]?.[0]?.json,
		error: task.error as EngineError | undefined,
	}));
}
