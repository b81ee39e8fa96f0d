import { CHAT_COMPLETION_OPTIONS } from './properties/options';
import type { problems } from '../../engine';

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completion node',
	options: CHAT_COMPLETION_OPTIONS,
	errorDetails: true,
	reasoningMissing:
		"The model thinks before it calls tools and wants that reasoning back: continue the conversation from the Chat Completion node's messages or message output unchanged (they keep reasoning_content), or set Reasoning on the assistant row.",
	reasoningRefused:
		'This service takes no reasoning on the messages sent to it (it comes from a conversation with another service): remove the field from the assistant messages in Messages (JSON), or leave Reasoning empty on the Messages rows.',
};
