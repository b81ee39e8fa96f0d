import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { executeChatCompletion } from './actions/execute';
import { modelProperty } from './description/model';
import { optionsProperty, simplifyProperty } from './description/options';
import { outputsExpression } from './description/outputs';
import { promptProperties } from './description/prompt';
import { toolProperties } from './description/tools';
import { searchModels } from './methods/search-models';
import { testChatCompletionsApi } from './methods/test-credential';

export class ChatCompletion implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completion',
		name: 'chatCompletion',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		version: 1,
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
			simplifyProperty,
			optionsProperty,
		],
	};

	methods = {
		listSearch: { searchModels },
		credentialTest: { testChatCompletionsApi },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeChatCompletion.call(this);
	}
}
