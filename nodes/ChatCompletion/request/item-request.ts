import type { ChatInput } from './input';
import { buildMessages } from './messages';
import { buildTools } from './tools';
import type { ChatRequest } from '../../../engine';
import { buildChatRequest, optionSetting } from '../../../engine';

/**
 * One item's fields, checked, as a request: the prompt fields into messages, the tool fields into tools.
 * `streaming`: n8n streams the workflow's response (a Chat Trigger or Webhook in streaming mode), which
 * Stream not added follows.
 */
export function itemRequest(input: ChatInput, streaming = false): ChatRequest {
	const { options } = input;
	const maxImageBytes = optionSetting(options, 'maxImageSize') * 1024 * 1024;
	return buildChatRequest({
		model: input.model,
		messages: buildMessages(input, maxImageBytes),
		...buildTools(input),
		options,
		streaming,
	});
}
