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
import type { Connection } from '../../engine';
import { modelMethods, readConnection, startRun, subNode } from '../../engine';

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
		let connection: Connection | undefined;
		let client: subNode.RerankClient;
		try {
			connection = await readConnection(this);
			const request = subNode.buildRerankRequest(
				this.getNodeParameter('model', itemIndex, '', { extractValue: true }),
				this.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>,
			);
			// n8n supplies the reranker anew for each search: its run is that search's; the key's pause, pacing
			// and in-flight cap are shared with every other run on the key.
			client = new subNode.RerankClient(this, connection, startRun(this, connection), request);
		} catch (error) {
			throw rerankerError(this.getNode(), error, { connection });
		}
		return { response: new ChatCompletionsReranker(this, client) };
	}
}
