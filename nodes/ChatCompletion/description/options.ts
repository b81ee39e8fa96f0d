import type { INodeProperties } from 'n8n-workflow';

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify Output',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return the reply as content, tool_calls, usage and the conversation instead of the raw response of the service',
};

export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 64, numberPrecision: 0 },
			default: 1,
			description:
				'How many items are sent at the same time. The output keeps the order of the input items.',
		},
		{
			displayName: 'Extra Body',
			name: 'extraBody',
			type: 'json',
			default: '{}',
			description:
				'JSON object merged into the request body, for parameters this node has no field for, e.g. {"seed": 7}',
		},
		{
			displayName: 'Max Image Size (MB)',
			name: 'maxImageSize',
			type: 'number',
			typeOptions: { minValue: 0.001, numberPrecision: 3 },
			default: 20,
			description: 'Images larger than this are refused before anything is sent',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 3,
			description:
				'How often a request is tried again after a rate limit (429), a server or gateway failure (500, 502, 503, 504) or a lost connection, waiting longer each time and as long as the service asks (Retry-After). Bad requests, keys, quota and missing models are never retried.',
		},
		{
			displayName: 'Max Retry Wait (Ms)',
			name: 'maxRetryWait',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 60000,
			description: 'The most time all waits between the tries of one request may add up to',
		},
		{
			displayName: 'Maximum Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1024,
			description: 'Upper bound on the number of tokens in the reply (max_tokens)',
		},
		{
			displayName: 'Stream',
			name: 'stream',
			type: 'boolean',
			default: false,
			description:
				'Whether to receive the reply as it is written (Server-Sent Events) and pass the text on to a Chat Trigger or Webhook that streams its response. The output item is the same.',
		},
		{
			displayName: 'Stream Usage',
			name: 'streamUsage',
			type: 'boolean',
			default: true,
			description:
				'Whether to ask for token usage at the end of a stream (stream_options.include_usage). Turn off for services that reject it.',
		},
		{
			displayName: 'Temperature',
			name: 'temperature',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
			default: 1,
			description:
				'Sampling temperature from 0 to 2: lower values give more focused answers, higher values more varied ones',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 300000,
			description:
				'How long to wait for the reply, in milliseconds. There is no hidden upper limit.',
		},
		{
			displayName: 'Top P',
			name: 'topP',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 1,
			description:
				'Nucleus sampling from 0 to 1: only the most likely tokens whose probabilities add up to this value are considered (top_p)',
		},
	],
};
