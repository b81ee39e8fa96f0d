/**
 * The Chat Completions Reranker node through n8n-core's engine (`sub-node-probe.cts`): the probe takes the
 * reranker from its ai_reranker input, as n8n's vector stores do, and calls `compressDocuments` the way they do.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { runSubNode } from './sub-node-probe.cts';
import type { SubNodeRun } from './sub-node-probe.cts';
import { RerankerChatCompletions } from '../../nodes/RerankerChatCompletions/RerankerChatCompletions.node';
import type { DocumentCompressor } from '../../nodes/RerankerChatCompletions/document-compressor';

/** A vector store's document, as n8n's stores hand them to a reranker. */
export type { StoreDocument } from '../../nodes/RerankerChatCompletions/document-compressor';

/** LangChain's document compressor, as n8n's vector stores call it. */
export type Reranker = DocumentCompressor;

/** Runs Probe <- Chat Completions Reranker through n8n-core's engine. */
export async function runReranker({
	model = 'rerank-1',
	...run
}: {
	apiKey: string;
	baseUrl: string;
	/** The credential's other fields (e.g. Extra Headers). */
	credential?: IDataObject;
	model?: string;
	options?: INodeParameters;
	/** Calls the reranker; `prompt` is the probe's Prompt resolved for an item, as a vector store's Get Many reads it. */
	script: (reranker: Reranker, prompt: (itemIndex: number) => unknown) => Promise<IDataObject>;
	/** The probe as a vector store: its Prompt and its input items. */
	store?: { prompt?: string; items?: INodeExecutionData[] };
}): Promise<SubNodeRun> {
	return await runSubNode<Reranker>(
		{
			type: 'n8n-nodes-chat-completions.rerankerChatCompletions',
			name: 'Chat Completions Reranker',
			node: new RerankerChatCompletions(),
			connection: NodeConnectionTypes.AiReranker,
		},
		{ model, ...run },
	);
}
