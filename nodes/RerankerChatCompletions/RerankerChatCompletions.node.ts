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
		outputNames: ['Reranker'],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [subNode.vectorStoreHint, rerankModelProperty, optionsProperty],
	};

	methods = modelMethods;

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		// n8n supplies the reranker anew for each search: its run is that search's.
		const client = await subNode.suppliedClient(
			this,
			itemIndex,
			subNode.buildRerankRequest,
			subNode.RerankClient,
			(error, connection) => rerankerError(this.getNode(), error, { connection }),
		);
		return { response: new ChatCompletionsReranker(this, client) };
	}
}
