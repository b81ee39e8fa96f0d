import type { INodeProperties } from 'n8n-workflow';

import { rowFileProperties, simpleFileProperties } from './files';
import { rowImageProperties, simpleImageProperties } from './images';
import { FIELDS } from '../fields';
import { protocol } from '../../../engine';

export const promptProperties: INodeProperties[] = [
	{
		displayName: FIELDS.promptType.label,
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
		displayName: FIELDS.systemMessage.label,
		name: 'systemMessage',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. You are a helpful assistant. Answer in one sentence.',
		description: 'Sets the behaviour of the model. Left empty, no system message is sent.',
		displayOptions: { show: { promptType: ['simple'] } },
	},
	{
		displayName: FIELDS.prompt.label,
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. Summarise this text: {{ $json.text }}',
		description: 'The text the model answers',
		displayOptions: { show: { promptType: ['simple'] } },
	},
	...simpleImageProperties,
	...simpleFileProperties,
	{
		displayName: FIELDS.messages.label,
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
						displayName: FIELDS.messages.row.fields.role,
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
						displayName: FIELDS.messages.row.fields.content,
						name: 'content',
						type: 'string',
						typeOptions: { rows: 3 },
						default: '',
						placeholder: 'e.g. What is the capital of France?',
					},
					{
						displayName: FIELDS.messages.row.fields.reasoning,
						name: 'reasoning',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
						placeholder: "e.g. {{ $('Chat Completion').item.json.reasoning }}",
						description:
							"The model's reasoning for this answer, sent back with it. Thinking models such as DeepSeek's want it back on an answer that called tools. Left empty, none is sent.",
						displayOptions: { show: { role: ['assistant'] } },
					},
					{
						displayName: FIELDS.messages.row.fields.reasoningField,
						name: 'reasoningField',
						type: 'options',
						default: 'reasoning_content', // protocol.REASONING_TEXT_FIELDS[0]: n8n's lint wants a literal default
						description: 'The field the service sent the reasoning in, and reads it back from',
						options: protocol.REASONING_TEXT_FIELDS.map((value) => ({ name: value, value })),
						displayOptions: { show: { role: ['assistant'] } },
					},
					...rowImageProperties,
					...rowFileProperties,
				],
			},
		],
	},
	{
		displayName: FIELDS.messagesJson.label,
		name: 'messagesJson',
		type: 'json',
		required: true,
		default: '={{ $json.messages }}',
		description:
			'A messages array in protocol form: objects with role (system, user, assistant, tool) and content, including assistant tool_calls and tool results',
		displayOptions: { show: { promptType: ['json'] } },
	},
];
