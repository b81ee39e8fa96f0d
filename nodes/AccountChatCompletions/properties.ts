import type { INodeProperties } from 'n8n-workflow';

import type { OptionName } from '../../engine';
import { endpointDescriptions, optionsCollection } from '../../engine';

/** The request options of a GET: Timeout and the retries (it sends no body, so no Extra Body). */
export const ACCOUNT_OPTIONS: readonly OptionName[] = [
	'timeout',
	'maxRetries',
	'maxRetryWait',
	'maxRateLimitWait',
];

const operationProperty: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Get Balance',
			value: 'getBalance',
			action: 'Get the balance',
			description:
				'What the API key has left to spend, as the gateway tells it (OpenRouter, new-api, one-api, LiteLLM)',
		},
		{
			name: 'List Models',
			value: 'listModels',
			action: 'List the models',
			description:
				'One item per model the API key may call: what it is for, its context and its prices, where the gateway tells them',
		},
	],
	default: 'getBalance',
};

export const accountProperties: INodeProperties[] = [
	operationProperty,
	{
		...optionsCollection(ACCOUNT_OPTIONS, undefined, [], endpointDescriptions()),
		displayOptions: { show: { operation: ['getBalance', 'listModels'] } },
	},
];
