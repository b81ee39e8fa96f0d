import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { executeMedia } from './execute';
import { modelKindOfNode } from './model-kind';
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
		builderHint: {
			searchHint:
				'Images and audio with any model of an OpenAI-compatible gateway: Image Generate and Edit (the images become binary data), Audio Transcribe and Translate (a recording in binary data becomes text) and Audio Generate (text becomes speech in binary data).',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-base.httpRequest',
					relationHint: 'Downloads a file to transcribe or an image to edit',
				},
				{
					nodeType: 'n8n-nodes-chat-completions.chatCompletion',
					relationHint: 'Answers about a transcript, on the same key',
				},
			],
		},
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: mediaProperties,
	};

	methods = modelMethods(modelKindOfNode);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeMedia.call(this);
	}
}
