import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { executeMedia } from './execute';
import { mediaProperties } from './properties';
import { modelMethods } from '../../engine';

export class MediaChatCompletions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completions Media',
		name: 'mediaChatCompletions',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Generates and edits images, transcribes recordings and speaks texts with any model of an OpenAI-compatible service',
		defaults: { name: 'Chat Completions Media' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: mediaProperties,
	};

	methods = modelMethods;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeMedia.call(this);
	}
}
