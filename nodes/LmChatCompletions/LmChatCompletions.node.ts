import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INode,
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';

import {
	connectionHint,
	optionsProperty,
	RESPONSE_FORMAT_FIELDS_FROM,
	responseFormatProperties,
} from './properties';
import { configurationError, modelError } from './model/errors';
import { loadSupply } from './model/load-sdk';
import type { ModelSettings } from './model/model';
import { modelSettings } from './model/settings';
import type { Connection } from '../../engine';
import {
	modelMethods,
	modelProperty,
	readConnection,
	withResponseFormatFields,
} from '../../engine';

/** A wrong setting, shown as it is. */
function settingsError(node: INode, error: unknown, connection: Connection | undefined) {
	return configurationError(modelError(node, error, { ...connection }));
}

export class LmChatCompletions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completions Chat Model',
		name: 'lmChatCompletions',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		// 1.1: Response Format and its options are fields below Model, not in Options.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{ $parameter["model"]?.cachedResultName || $parameter["model"]?.value || "" }}',
		description:
			'Any model of an OpenAI-compatible chat-completions service, for the AI Agent and other AI nodes',
		defaults: { name: 'Chat Completions Chat Model' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		builderHint: {
			outputs: { ai_languageModel: { required: true } },
			searchHint:
				'A chat model sub-node for any model of an OpenAI-compatible chat-completions gateway (one API key, many vendors: OpenRouter, new-api, one-api, LiteLLM). Connect it to an AI Agent, Basic LLM Chain, Guardrails, Model Selector or any AI node that takes a Chat Model. Reasoning models, tool calling, structured output and fallback models work through it.',
			relatedNodes: [
				{
					nodeType: '@n8n/n8n-nodes-langchain.agent',
					relationHint: 'Takes this node as its Chat Model',
				},
				{
					nodeType: '@n8n/n8n-nodes-langchain.chainLlm',
					relationHint: 'Takes this node as its Chat Model',
				},
				{
					nodeType: 'n8n-nodes-chat-completions.chatCompletion',
					relationHint: 'The same models as a workflow step, with a Tool Calls output',
				},
			],
		},
		outputNames: ['Model'],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [connectionHint, modelProperty, ...responseFormatProperties, optionsProperty],
	};

	methods = modelMethods('chat');

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		// The SDK part is loaded now, not with the node (see load-sdk.ts).
		const supplyChatModel = await loadSupply(this.getNode());
		let connection: Connection | undefined;
		let settings: ModelSettings;
		try {
			connection = await readConnection(this);
			const model = this.getNodeParameter('model', itemIndex, '', { extractValue: true });
			const options = withResponseFormatFields(
				this.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>,
				this.getNode().typeVersion,
				RESPONSE_FORMAT_FIELDS_FROM,
				(name, fallback) => this.getNodeParameter(name, itemIndex, fallback),
			);
			settings = modelSettings(connection, model, options);
		} catch (error) {
			throw settingsError(this.getNode(), error, connection);
		}
		return supplyChatModel(this, settings);
	}
}
