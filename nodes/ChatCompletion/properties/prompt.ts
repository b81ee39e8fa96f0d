import type { INodeProperties } from 'n8n-workflow';

import { imageFields } from './images';

export const promptProperties: INodeProperties[] = [
	{
		displayName: 'Prompt',
		name: 'promptType',
		type: 'options',
		noDataExpression: true,
		default: 'simple',
		options: [
			{
				name: 'Simple',
				value: 'simple',
				description: 'A system message and one user prompt',
			},
			{
				name: 'Messages',
				value: 'messages',
				description: 'A conversation as rows of role and content',
			},
			{
				name: 'JSON',
				value: 'json',
				description:
					'A messages array in protocol form, e.g. the "messages" output of a previous Chat Completion node',
			},
		],
	},
	{
		displayName: 'System Message',
		name: 'systemMessage',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. You are a helpful assistant. Answer in one sentence.',
		description: 'Sets the behaviour of the model. Left empty, no system message is sent.',
		displayOptions: { show: { promptType: ['simple'] } },
	},
	{
		displayName: 'User Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. Summarise this text: {{ $json.text }}',
		description: 'The text the model answers',
		displayOptions: { show: { promptType: ['simple'] } },
	},
	...imageFields.map((field) => ({
		...field,
		displayOptions: { show: { promptType: ['simple'] } },
	})),
	{
		displayName: 'Messages',
		name: 'messages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		default: { values: [{ role: 'user', content: '' }] },
		placeholder: 'Add Message',
		displayOptions: { show: { promptType: ['messages'] } },
		options: [
			{
				displayName: 'Message',
				name: 'values',
				values: [
					{
						displayName: 'Role',
						name: 'role',
						type: 'options',
						default: 'user',
						options: [
							{
								name: 'Assistant',
								value: 'assistant',
								description: 'An earlier answer of the model',
							},
							{
								name: 'System',
								value: 'system',
								description: 'Sets the behaviour of the model',
							},
							{
								name: 'User',
								value: 'user',
								description: 'What the user says',
							},
						],
					},
					{
						displayName: 'Content',
						name: 'content',
						type: 'string',
						typeOptions: { rows: 3 },
						default: '',
						placeholder: 'e.g. What is the capital of France?',
					},
					...imageFields,
				],
			},
		],
	},
	{
		displayName: 'Messages (JSON)',
		name: 'messagesJson',
		type: 'json',
		required: true,
		default: '={{ $json.messages }}',
		description:
			'A messages array in protocol form: objects with role (system, user, assistant, tool) and content, including assistant tool_calls and tool results',
		displayOptions: { show: { promptType: ['json'] } },
	},
	{
		displayName:
			"When a conversation ends with the model's tool calls (items from the Tool Calls output), each item answers one call: the items of one reply are sent together in one request",
		name: 'toolResultsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { promptType: ['json'] } },
	},
	{
		displayName: 'Tool Call ID',
		name: 'toolCallId',
		type: 'string',
		default: '={{ $json.id }}',
		description: 'Which tool call this item answers (the "ID" field of a Tool Calls item)',
		displayOptions: { show: { promptType: ['json'] } },
	},
	{
		displayName: 'Tool Result',
		name: 'toolResult',
		type: 'string',
		default: '={{ $json.result }}',
		description: 'The result of the function for this call; objects are sent as JSON',
		displayOptions: { show: { promptType: ['json'] } },
	},
];
