import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';

import { ChatCompletionsEmbeddings } from './embeddings';
import { embeddingsError } from './errors';
import { embeddingModelProperty, optionsProperty } from './properties';
import { modelMethods, subNode } from '../../engine';

export class EmbeddingsChatCompletions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completions Embeddings',
		name: 'embeddingsChatCompletions',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["model"]?.cachedResultName || $parameter["model"]?.value || "" }}',
		description:
			'Embeddings from any embedding model of an OpenAI-compatible service, for the vector stores',
		defaults: { name: 'Chat Completions Embeddings' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiEmbedding],
		builderHint: {
			outputs: { ai_embedding: { required: true } },
			searchHint:
				'An embeddings sub-node for any embedding model of an OpenAI-compatible gateway. Connect it to a vector store (Simple Vector Store, PGVector, Qdrant, ...) to insert documents and to retrieve them; use the same model for both.',
			relatedNodes: [
				{
					nodeType: '@n8n/n8n-nodes-langchain.vectorStoreInMemory',
					relationHint: 'Stores and searches the vectors this node makes',
				},
				{
					nodeType: 'n8n-nodes-chat-completions.rerankerChatCompletions',
					relationHint: 'Reorders what the vector store found, on the same key',
				},
			],
		},
		outputNames: ['Embeddings'],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [subNode.vectorStoreHint, embeddingModelProperty, optionsProperty],
	};

	methods = modelMethods('embeddings');

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		// One run for every call of this vector store's execution: the batches of all its calls share the
		// slots (Auto).
		const client = await subNode.suppliedClient(
			this,
			itemIndex,
			subNode.EmbeddingsClient,
			(error, connection) => embeddingsError(this.getNode(), error, { connection }),
		);
		return { response: new ChatCompletionsEmbeddings(this, client) };
	}
}
