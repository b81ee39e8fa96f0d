/**
 * The Chat Completions Embeddings node through n8n-core's engine: a small root node ("Probe") takes the
 * embeddings from its ai_embedding input, as n8n's vector stores do (n8n-core runs the sub-node's
 * supplyData), and calls `embedDocuments` or `embedQuery` the way they do.
 */
import type {
	IConnections,
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	IRunData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { EngineError } from '../../dev/n8n-core/harness.cts';

export const EMBEDDINGS_NODE = 'Chat Completions Embeddings';

/** LangChain's embeddings interface, as n8n's vector stores call it. */
export interface Embeddings {
	embedDocuments(documents: string[]): Promise<number[][]>;
	embedQuery(query: string): Promise<number[]>;
}

export type EmbeddingsScript = (embeddings: Embeddings) => Promise<IDataObject>;

function probeNode(script: EmbeddingsScript): INodeType {
	return {
		description: {
			displayName: 'Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Calls the connected embeddings',
			defaults: { name: 'Probe' },
			inputs: [
				NodeConnectionTypes.Main,
				{
					type: NodeConnectionTypes.AiEmbedding,
					displayName: 'Embedding',
					required: true,
					maxConnections: 1,
				},
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute() {
			const embeddings = (await this.getInputConnectionData(
				NodeConnectionTypes.AiEmbedding,
				0,
			)) as Embeddings;
			return [[{ json: await script(embeddings), pairedItem: { item: 0 } }]];
		},
	};
}

export interface EmbeddingsRun {
	output?: IDataObject;
	error?: EngineError;
	/** n8n's log of the sub-node: per call, what went in and what came out (or the error). */
	log: Array<{ input?: IDataObject; output?: IDataObject; error?: EngineError }>;
}

/** Runs Probe <- Chat Completions Embeddings through n8n-core's engine. */
export async function runEmbeddings({
	apiKey,
	baseUrl,
	credential = {},
	model = 'embed-1',
	options = {},
	script,
}: {
	apiKey: string;
	baseUrl: string;
	/** The credential's other fields (e.g. Extra Headers). */
	credential?: IDataObject;
	model?: string;
	options?: INodeParameters;
	script: EmbeddingsScript;
}): Promise<EmbeddingsRun> {
	const engine = createEngine({
		nodeTypes: {
			'n8n-nodes-chat-completions.embeddingsChatCompletions': new EmbeddingsChatCompletions(),
			'test.probe': probeNode(script),
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
			parameters: {},
		},
		{
			id: 'e',
			name: EMBEDDINGS_NODE,
			type: 'n8n-nodes-chat-completions.embeddingsChatCompletions',
			typeVersion: 1,
			position: [0, 200],
			parameters: { model: { __rl: true, mode: 'id', value: model }, options },
		},
	];
	const connections: IConnections = {
		[EMBEDDINGS_NODE]: {
			ai_embedding: [[{ node: 'Probe', type: NodeConnectionTypes.AiEmbedding, index: 0 }]],
		},
	};
	const { runData, error } = await engine.runWorkflow({
		workflow: { nodes, connections },
		startNode: 'Probe',
	});
	return {
		output: runData.Probe?.[0]?.data?.main[0]?.[0]?.json,
		error,
		log: subNodeLog(runData),
	};
}

function subNodeLog(runData: IRunData): EmbeddingsRun['log'] {
	return (runData[EMBEDDINGS_NODE] ?? []).map((task) => ({
		input: task.inputOverride?.ai_embedding?.[0]?.[0]?.json,
		output: task.data?.ai_embedding?.[0]?.[0]?.json,
		error: task.error as EngineError | undefined,
	}));
}
