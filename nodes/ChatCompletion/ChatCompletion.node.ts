import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { executeChatCompletion } from './execute/execute';
import { optionsProperty, responseFormatProperties, simplifyProperty } from './properties/options';
import { outputsExpression } from './properties/outputs';
import { promptProperties } from './properties/prompt';
import { toolNames } from './properties/tool-names';
import { toolProperties } from './properties/tools';
import { modelMethods, modelProperty } from '../../engine';

export class ChatCompletion implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completion',
		name: 'chatCompletion',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		// 1.1: image fields behind an Images switch, on user messages only (1 keeps showing them).
		// 1.2: Response Format and its options are fields below Tools, not in Options.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: '={{ $parameter["model"]?.cachedResultName || $parameter["model"]?.value || "" }}',
		description: 'Ask any model of an OpenAI-compatible chat-completions service',
		defaults: { name: 'Chat Completion' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: `={{ ${outputsExpression} }}`,
		// The AI workflow builder cannot read outputs computed by an expression: what they are is said here.
		builderHint: {
			searchHint:
				"Sends a prompt to any model of an OpenAI-compatible chat-completions gateway (one API key, many vendors) and returns the reply as an item: content, usage, cost, and messages (the conversation so far). Output 1, Reply, always exists. With Tools set to Define Below or JSON the node has a second output, Tool Calls: one item per function call the model asks for (id, name, args, messages). Route it by name (Switch), run the function, set result on the item, and connect it back to a Chat Completion node with Prompt set to JSON (Messages from the item's messages field, Tool Call ID and Tool Result), which continues the conversation. Response Format JSON Schema returns parsed JSON in the json field. For an AI Agent use the Chat Completions Chat Model instead.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-chat-completions.lmChatCompletions',
					relationHint: 'The same models as a Chat Model for the AI Agent and chains',
				},
				{
					nodeType: 'n8n-nodes-base.switch',
					relationHint: 'Routes Tool Calls items by the name of the function called',
				},
				{
					nodeType: 'n8n-nodes-chat-completions.mediaChatCompletions',
					relationHint: 'Images and audio on the same key',
				},
			],
		},
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [
			modelProperty,
			...promptProperties,
			...toolProperties,
			...responseFormatProperties,
			simplifyProperty,
			optionsProperty,
		],
	};

	methods = { ...modelMethods('chat'), loadOptions: { toolNames } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChatCompletion.call(this);
	}
}
