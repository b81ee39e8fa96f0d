/**
 * The Chat Completions Chat Model through n8n-core's engine: a small root node ("Probe") takes the model
 * from its ai_languageModel input, as the AI Agent and the Basic LLM Chain do (n8n-core runs the model
 * node's supplyData and the SDK's LangChain adapter wraps the model), and calls it the way they do.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
// The SDK's own tokenizer (it depends on @n8n/ai-utilities, as does jest.config.js's @langchain/core).
import { encodingForModel } from '@n8n/ai-utilities';
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodeType,
	IRunData,
	StructuredChunk,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
// The node loads its SDK part when a model is first supplied (a few seconds for the SDK and LangChain):
// loaded here with the probe, so that no test pays for it within its time limit.
import '../../nodes/LmChatCompletions/model/supply';
import { LmChatCompletions } from '../../nodes/LmChatCompletions/LmChatCompletions.node';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { EngineError } from '../../dev/n8n-core/harness.cts';

// n8n's token estimate of every model call (N8nLlmTracing, for gpt-4o) reads tiktoken's o200k_base the first time:
// about 3 s, more on a loaded machine. Read before the tests of each file that runs the probe, so that none of them
// pays for it within its time limit.
beforeAll(async () => void (await encodingForModel('gpt-4o')), 60_000);

export const MODEL_TYPE = 'n8n-nodes-chat-completions.lmChatCompletions';
export const MODEL_NODE = 'Chat Completions Chat Model';
const PROBE_TYPE = 'test.probe';

/** What the probe does with the model (what an AI node would), returning the probe's output item. */
export type ProbeScript = (
	model: BaseChatModel,
	context: IExecuteFunctions,
) => Promise<IDataObject>;

function probeNode(script: ProbeScript): INodeType {
	return {
		description: {
			displayName: 'Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Calls the connected chat model',
			defaults: { name: 'Probe' },
			inputs: [
				NodeConnectionTypes.Main,
				{
					type: NodeConnectionTypes.AiLanguageModel,
					displayName: 'Model',
					required: true,
					maxConnections: 1,
				},
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const model = (await this.getInputConnectionData(
				NodeConnectionTypes.AiLanguageModel,
				0,
			)) as BaseChatModel;
			return [[{ json: await script(model, this), pairedItem: { item: 0 } }]];
		},
	};
}

export interface ProbeRun {
	/** The probe's output item. */
	output?: IDataObject;
	error?: EngineError;
	runData: IRunData;
	status: string;
	/** How often the credential was loaded during the run (in n8n, a database read each time). */
	credentialReads: number;
}

export interface ProbeArgs {
	apiKey: string;
	baseUrl: string;
	/** The credential's other fields (e.g. Extra Headers). */
	credential?: IDataObject;
	/** The model ID (mode "ID"). */
	model: string;
	options?: INodeParameters;
	/** The model node's version (1 unless given) and its fields besides Model and Options (Response Format's, from 1.1). */
	typeVersion?: number;
	fields?: INodeParameters;
	script: ProbeScript;
	signal?: AbortSignal;
	/** When given, the run streams (as behind a Chat Trigger in streaming mode). */
	onChunk?: (chunk: StructuredChunk) => void;
}

/** Runs Probe <- Chat Completions Chat Model through n8n-core's engine. */
export async function runProbe({
	apiKey,
	baseUrl,
	credential = {},
	model,
	options = {},
	typeVersion = 1,
	fields = {},
	script,
	signal,
	onChunk,
}: ProbeArgs): Promise<ProbeRun> {
	const engine = createEngine({
		nodeTypes: { [MODEL_TYPE]: new LmChatCompletions(), [PROBE_TYPE]: probeNode(script) },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey, baseUrl, ...credential } },
	});
	const nodes: INode[] = [
		{
			id: 'probe',
			name: 'Probe',
			type: PROBE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'model',
			name: MODEL_NODE,
			type: MODEL_TYPE,
			typeVersion,
			position: [0, 200],
			parameters: { model: { __rl: true, mode: 'id', value: model }, ...fields, options },
		},
	];
	const connections: IConnections = {
		[MODEL_NODE]: {
			ai_languageModel: [[{ node: 'Probe', type: NodeConnectionTypes.AiLanguageModel, index: 0 }]],
		},
	};
	const { runData, error, status } = await engine.runWorkflow({
		workflow: { nodes, connections },
		startNode: 'Probe',
		signal,
		onChunk,
	});
	return {
		output: runData.Probe?.[0]?.data?.main[0]?.[0]?.json,
		error,
		runData,
		status,
		credentialReads: engine.credentialReads('chatCompletionsApi'),
	};
}

/** What n8n recorded as the model's output per call (the token usage the AI Agent shows). */
export function modelOutputs(runData: IRunData): IDataObject[] {
	return (runData[MODEL_NODE] ?? []).map(
		(run) => (run.data?.ai_languageModel?.[0]?.[0]?.json ?? {}) as IDataObject,
	);
}

/**
 * The first run loads n8n's engine, the SDK and LangChain (seconds on a loaded machine): a test file runs this
 * in `beforeAll` (with a long time limit), so that none of its tests pays for it within its own.
 */
export async function warmUp(apiKey: string, baseUrl: string): Promise<void> {
	await runProbe({
		apiKey,
		baseUrl,
		model: 'echo-1',
		script: async (model) => ({ text: (await model.invoke('warm up')).text }),
	});
}
