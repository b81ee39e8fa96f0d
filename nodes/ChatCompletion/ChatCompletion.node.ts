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

	methods = { ...modelMethods, loadOptions: { toolNames } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChatCompletion.call(this);
	}
}
