import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';

import { rerankerError } from './errors';
import { optionsProperty, rerankModelProperty } from './properties';
import { ChatCompletionsReranker } from './reranker';
import { modelMethods, subNode } from '../../engine';

export class RerankerChatCompletions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completions Reranker',
		name: 'rerankerChatCompletions',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["model"]?.cachedResultName || $parameter["model"]?.value || "" }}',
		description:
			'Reranks the documents a vector store found with any rerank model of an OpenAI-compatible service',
		defaults: { name: 'Chat Completions Reranker' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiReranker],
		builderHint: {
			outputs: { ai_reranker: { required: true } },
			searchHint:
				"A reranker sub-node for any rerank model of an OpenAI-compatible gateway (POST /rerank). Connect it to a vector store's Reranker input with Rerank Results on: the documents found come back best first.",
			relatedNodes: [
				{
					nodeType: '@n8n/n8n-nodes-langchain.vectorStoreInMemory',
					relationHint: 'Takes this node as its Reranker when Rerank Results is on',
				},
				{
					nodeType: 'n8n-nodes-chat-completions.embeddingsChatCompletions',
					relationHint: 'Makes the vectors the vector store searches, on the same key',
				},
			],
		},
		outputNames: ['Reranker'],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [subNode.vectorStoreHint, rerankModelProperty, optionsProperty],
	};

	methods = modelMethods('rerank');

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		// n8n supplies the reranker anew for each search: its run is that search's.
		const client = await subNode.suppliedClient(
			this,
			itemIndex,
			subNode.RerankClient,
			(error, connection) => rerankerError(this.getNode(), error, { connection }),
		);
		return { response: new ChatCompletionsReranker(this, client) };
	}
}
