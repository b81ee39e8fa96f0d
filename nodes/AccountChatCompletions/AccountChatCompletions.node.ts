import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { executeGetBalance } from './balance';
import { accountProperties } from './properties';
import { credentialMethods } from '../../engine';

/** The account behind the key: what it has left to spend (Get Balance). */
export class AccountChatCompletions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completions Account',
		name: 'accountChatCompletions',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] }}',
		description:
			'Tells what the API key of an OpenAI-compatible service has left to spend, where the gateway tells it',
		defaults: { name: 'Chat Completions Account' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				'The balance of the key of an OpenAI-compatible gateway (OpenRouter, new-api, one-api, LiteLLM): Get Balance gives one item with what the key has left (remaining, used, limit, currency or unit, source), e.g. to check before a large batch with an If node.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-base.if',
					relationHint: 'Goes on with a large batch only when the key has enough left',
				},
				{
					nodeType: 'n8n-nodes-chat-completions.chatCompletion',
					relationHint: 'Spends the balance, on the same key',
				},
			],
		},
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: accountProperties,
	};

	methods = credentialMethods;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeGetBalance.call(this);
	}
}
