import type { IExecuteFunctions } from 'n8n-workflow';

import type { ChatInput } from '../request/types';

/** The UI parameters of one item, as they are after n8n resolved the item's expressions. */
export function readInput(context: IExecuteFunctions, itemIndex: number): ChatInput {
	const promptType = context.getNodeParameter('promptType', itemIndex) as string;
	const input: ChatInput = {
		model: context.getNodeParameter('model', itemIndex, '', { extractValue: true }),
		promptType,
		options: context.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>,
	};
	if (promptType === 'simple') {
		input.systemMessage = context.getNodeParameter('systemMessage', itemIndex, '');
		input.prompt = context.getNodeParameter('prompt', itemIndex, '');
	} else if (promptType === 'messages') {
		input.messages = context.getNodeParameter('messages', itemIndex, {});
	} else if (promptType === 'json') {
		input.messagesJson = context.getNodeParameter('messagesJson', itemIndex, undefined);
	}
	return input;
}
