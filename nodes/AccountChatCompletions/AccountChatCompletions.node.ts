import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { executeAccount } from './execute';
import { accountProperties } from './properties';
import { credentialMethods } from '../../engine';

/** The account behind the key: what it has left to spend (Get Balance), the models it may call (List Models). */
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
			'Tells what the API key of an OpenAI-compatible service has left to spend, and the models it may call with their prices, where the gateway tells them',
		defaults: { name: 'Chat Completions Account' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		builderHint: {
			searchHint:
				'The balance of the key of an OpenAI-compatible gateway (OpenRouter, new-api, one-api, LiteLLM): Get Balance gives one item with what the key has left (remaining, used, limit, currency or unit, source), e.g. to check before a large batch with an If node. List Models gives one item per model the key may call (id, kinds, context_length, max_output_tokens, pricing in USD, source), e.g. to pick the cheapest embedding model.',
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
		return await executeAccount.call(this);
	}
}
