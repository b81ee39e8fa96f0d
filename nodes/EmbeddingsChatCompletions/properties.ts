import type { INodeProperties } from 'n8n-workflow';

import type { OptionName } from '../../engine';
import { endpointDescriptions, modelProperty, optionsCollection } from '../../engine';

export const embeddingModelProperty: INodeProperties = {
	...modelProperty,
	description:
		'The embedding model, kept for the whole vector store. The list shows the embedding models your API key may call, with their prices; where the gateway does not tell what a model is for, it shows it too: pick one that embeds (often with "embed" in its ID).',
};

/** The Embeddings node's Options: the request options of the chat nodes that mean the same, and its own. */
export const EMBEDDINGS_OPTIONS: readonly OptionName[] = [
	'dimensions',
	'batchSize',
	'timeout',
	'maxRetries',
	'maxRetryWait',
	'maxRateLimitWait',
	'extraBody',
];

export const optionsProperty = optionsCollection(
	EMBEDDINGS_OPTIONS,
	undefined,
	[],
	endpointDescriptions('{"input_type": "search_document"} (Cohere, NVIDIA)'),
);
