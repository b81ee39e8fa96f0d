/**
 * The Chat Completions Embeddings node through n8n-core's engine (`sub-node-probe.cts`): the probe takes the
 * embeddings from its ai_embedding input, as n8n's vector stores do, and calls `embedDocuments` or
 * `embedQuery` the way they do.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { runSubNode } from './sub-node-probe.cts';
import type { SubNodeRun } from './sub-node-probe.cts';
import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';

/** LangChain's embeddings interface, as n8n's vector stores call it. */
export interface Embeddings {
	embedDocuments(documents: string[]): Promise<number[][]>;
	embedQuery(query: string): Promise<number[]>;
}

/** Calls the embeddings; `prompt` is the probe's Prompt resolved for an item, as a vector store's Get Many reads it. */
export type EmbeddingsScript = (
	embeddings: Embeddings,
	prompt: (itemIndex: number) => unknown,
) => Promise<IDataObject>;

/** Runs Probe <- Chat Completions Embeddings through n8n-core's engine. */
export async function runEmbeddings({
	model = 'embed-1',
	...run
}: {
	apiKey: string;
	baseUrl: string;
	/** The credential's other fields (e.g. Extra Headers). */
	credential?: IDataObject;
	model?: string;
	options?: INodeParameters;
	script: EmbeddingsScript;
	/** The probe as a vector store: its Prompt and its input items. */
	store?: { prompt?: string; items?: INodeExecutionData[] };
}): Promise<SubNodeRun> {
	return await runSubNode<Embeddings>(
		{
			type: 'n8n-nodes-chat-completions.embeddingsChatCompletions',
			name: 'Chat Completions Embeddings',
			node: new EmbeddingsChatCompletions(),
			connection: NodeConnectionTypes.AiEmbedding,
		},
		{ model, ...run },
	);
}
