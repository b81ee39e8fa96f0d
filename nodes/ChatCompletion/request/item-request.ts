import type { AddedBinary } from './images';
import { allowedFileTypes, ItemFiles } from './files';
import { ItemImages } from './images';
import type { ChatInput } from './input';
import { buildMessages } from './messages';
import { resolvePlaceholders } from './placeholders';
import { buildTools } from './tools';
import type { ChatRequest, protocol } from '../../../engine';
import { buildChatRequest, optionSetting, optionText } from '../../../engine';

/** A request with the messages as the output's `messages` keeps them: images and files from binary data as placeholders. */
export interface ConversationRequest extends ChatRequest {
	conversation: protocol.ChatMessage[];
}

/** One item's request, and the data URIs of its Image URLs as binary data for the output item. */
export interface ItemRequest extends ConversationRequest {
	added: AddedBinary[];
}

/**
 * One item's fields, checked, as a request: the prompt fields into messages, the tool fields into tools.
 * The body holds every image's and file's data; the conversation holds placeholders instead.
 * `streaming`: n8n streams the workflow's response (a Chat Trigger or Webhook in streaming mode), which
 * Stream not added follows.
 */
export function itemRequest(input: ChatInput, streaming = false): ItemRequest {
	const { options } = input;
	const images = new ItemImages(
		input.binaries,
		optionSetting(options, 'maxImageSize') * 1024 * 1024,
	);
	const files = new ItemFiles(
		input.binaries,
		optionSetting(options, 'maxFileSize') * 1024 * 1024,
		allowedFileTypes(optionText(options, 'allowedFileTypes')),
	);
	const conversation = buildMessages(input, images, files);
	const request = buildChatRequest({
		model: input.model,
		messages: resolvePlaceholders(conversation, { images: images.sent, files: files.sent }),
		...buildTools(input),
		options,
		streaming,
	});
	return { ...request, conversation, added: images.added };
}
