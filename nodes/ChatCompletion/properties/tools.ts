import type { INodeProperties } from 'n8n-workflow';

const PARAMETERS_EXAMPLE = JSON.stringify(
	{
		type: 'object',
		properties: { city: { type: 'string', description: 'City name, e.g. Paris' } },
		required: ['city'],
	},
	null,
	2,
);

export const toolProperties: INodeProperties[] = [
	{
		displayName: 'Tools',
		name: 'toolsMode',
		type: 'options',
		noDataExpression: true,
		default: 'none',
		description:
			'Functions the model may ask to call. Replies that call them go to the Tool Calls output, one item per call.',
		options: [
			{ name: 'None', value: 'none', description: 'The model answers with text' },
			{
				name: 'Define Below',
				value: 'define',
				description: 'Name, description and parameters per tool',
			},
			{ name: 'JSON', value: 'json', description: 'A protocol tools array' },
		],
	},
	{
		displayName: 'Tools',
		name: 'tools',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		placeholder: 'Add Tool',
		displayOptions: { show: { toolsMode: ['define'] } },
		options: [
			{
				displayName: 'Tool',
				name: 'values',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. get_weather',
						description: 'Function name: letters, digits, underscores or hyphens',
					},
					{
						displayName: 'Description',
						name: 'description',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
						placeholder: 'e.g. Current weather for a city',
						description: 'Tells the model when to call this function',
					},
					{
						displayName: 'Parameters',
						name: 'parameters',
						type: 'json',
						default: PARAMETERS_EXAMPLE,
						description: 'The arguments as a JSON schema object (type, properties, required)',
					},
				],
			},
		],
	},
	{
		displayName: 'Tools (JSON)',
		name: 'toolsJson',
		type: 'json',
		default: '[]',
		description:
			'A protocol tools array, e.g. [{"type": "function", "function": {"name": "get_weather", "parameters": {...}}}]',
		displayOptions: { show: { toolsMode: ['json'] } },
	},
	{
		displayName: 'Tool Choice',
		name: 'toolChoice',
		type: 'options',
		default: 'auto',
		displayOptions: { hide: { toolsMode: ['none'] } },
		options: [
			{ name: 'Auto', value: 'auto', description: 'The model decides whether to call a function' },
			{
				name: 'Function',
				value: 'function',
				description: 'The model must call the function named below',
			},
			{ name: 'None', value: 'none', description: 'The model answers with text' },
			{
				name: 'Required',
				value: 'required',
				description: 'The model must call at least one function',
			},
		],
	},
	{
		displayName: 'Function Name',
		name: 'toolChoiceFunction',
		type: 'string',
		default: '',
		placeholder: 'e.g. get_weather',
		description: 'The function the model must call',
		displayOptions: { show: { toolChoice: ['function'] }, hide: { toolsMode: ['none'] } },
	},
];
