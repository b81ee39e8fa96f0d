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
			displayName: 'Maximum Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1024,
			description: 'Upper bound on the number of tokens in the reply (max_tokens)',
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
			description: 'How long to wait for the reply, in milliseconds. There is no hidden upper limit.',
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
