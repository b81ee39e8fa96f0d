import type { INodeProperties } from 'n8n-workflow';

import { FIELDS } from '../fields';

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
		displayName: FIELDS.toolsMode.label,
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
		displayName: FIELDS.tools.label,
		name: 'tools',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		placeholder: 'Add Function',
		displayOptions: { show: { toolsMode: ['define'] } },
		options: [
			{
				displayName: 'Function',
				name: 'values',
				values: [
					{
						displayName: FIELDS.tools.row.fields.name,
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. get_weather',
						description: 'Function name: letters, digits, underscores or hyphens',
					},
					{
						displayName: FIELDS.tools.row.fields.description,
						name: 'description',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
						placeholder: 'e.g. Current weather for a city',
						description: 'Tells the model when to call this function',
					},
					{
						displayName: FIELDS.tools.row.fields.parameters,
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
		displayName: FIELDS.toolsJson.label,
		name: 'toolsJson',
		type: 'json',
		default: '[]',
		description:
			'A protocol tools array, e.g. [{"type": "function", "function": {"name": "get_weather", "parameters": {...}}}]',
		displayOptions: { show: { toolsMode: ['json'] } },
	},
	{
		displayName: FIELDS.toolChoice.label,
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
		displayName: FIELDS.toolChoiceFunction.label,
		name: 'toolChoiceFunction',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'toolNames',
			loadOptionsDependsOn: ['toolsMode', 'tools', 'toolsJson'],
		},
		default: '',
		description:
			'The function the model must call, one of the tools above. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { toolChoice: ['function'] }, hide: { toolsMode: ['none'] } },
	},
	// Tool results apply only to a conversation that ends with the model's tool calls, so only with tools.
	{
		displayName:
			"When a conversation ends with the model's tool calls (items from the Tool Calls output), each item answers one call: the items of one reply are sent together in one request",
		name: 'toolResultsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { promptType: ['json'], toolsMode: ['define', 'json'] } },
	},
	{
		displayName: FIELDS.toolCallId.label,
		name: 'toolCallId',
		type: 'string',
		default: '={{ $json.id }}',
		description: 'Which tool call this item answers (the "ID" field of a Tool Calls item)',
		displayOptions: { show: { promptType: ['json'], toolsMode: ['define', 'json'] } },
	},
	{
		displayName: FIELDS.toolResult.label,
		name: 'toolResult',
		type: 'string',
		default: '={{ $json.result }}',
		description: 'The result of the function for this call; objects are sent as JSON',
		displayOptions: { show: { promptType: ['json'], toolsMode: ['define', 'json'] } },
	},
];
