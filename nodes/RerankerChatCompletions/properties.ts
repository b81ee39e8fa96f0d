import type { INodeProperties } from 'n8n-workflow';

import type { OptionName } from '../../engine';
import { endpointDescriptions, modelProperty, optionsCollection } from '../../engine';

export const rerankModelProperty: INodeProperties = {
	...modelProperty,
	description:
		'The rerank model. The list shows the rerank models your API key may call, with their prices; where the gateway does not tell what a model is for, it shows it too: pick one that reranks (often with "rerank" in its ID).',
};

/** The Reranker node's Options: its own, and the request options of the other nodes that mean the same. */
export const RERANKER_OPTIONS: readonly OptionName[] = [
	'topN',
	'minScore',
	'timeout',
	'maxRetries',
	'maxRetryWait',
	'maxRateLimitWait',
	'extraBody',
];

export const optionsProperty = optionsCollection(
	RERANKER_OPTIONS,
	undefined,
	[],
	endpointDescriptions('{"max_tokens_per_doc": 512} (Cohere)'),
);
