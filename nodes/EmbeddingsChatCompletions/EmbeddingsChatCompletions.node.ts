import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';

import { ChatCompletionsEmbeddings } from './embeddings';
import { embeddingsError } from './errors';
import { connectionHint, embeddingModelProperty, optionsProperty } from './properties';
import type { Connection, EmbeddingsRequest } from '../../engine';
import {
	buildEmbeddingsRequest,
	modelMethods,
	EmbeddingsClient,
	readConnection,
	startRun,
} from '../../engine';

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
		outputNames: ['Embeddings'],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [connectionHint, embeddingModelProperty, optionsProperty],
	};

	methods = modelMethods;

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		let connection: Connection | undefined;
		let request: EmbeddingsRequest;
		try {
			connection = await readConnection(this);
			request = buildEmbeddingsRequest(
				this.getNodeParameter('model', itemIndex, '', { extractValue: true }),
				this.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>,
			);
		} catch (error) {
			throw embeddingsError(this.getNode(), error, { connection });
		}
		// One run for every call of this vector store's execution: the batches of all its calls share the
		// slots (Auto); with every other run on the key, its pause, pacing and in-flight cap.
		const client = new EmbeddingsClient(this, connection, startRun(this, connection), request);
		return { response: new ChatCompletionsEmbeddings(this, client) };
	}
}
