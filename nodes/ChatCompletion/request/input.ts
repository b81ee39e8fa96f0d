import type { media } from '../../../engine';

export interface ImageFields {
	imageUrls?: unknown;
	imageBinaryProperties?: unknown;
	imageDetail?: unknown;
}

export interface FileFields {
	fileBinaryProperties?: unknown;
}

/** What the node's parameters hold for one item, before any checking. */
export interface ChatInput extends ImageFields, FileFields {
	model: unknown;
	promptType: unknown;
	systemMessage?: unknown;
	prompt?: unknown;
	messages?: unknown;
	messagesJson?: unknown;
	toolCallId?: unknown;
	toolResult?: unknown;
	toolsMode?: unknown;
	tools?: unknown;
	toolsJson?: unknown;
	toolChoice?: unknown;
	toolChoiceFunction?: unknown;
	options: Record<string, unknown>;
	/** The item's binary data that image and file fields and the placeholders of Messages JSON name; none when absent. */
	binaries?: media.ItemBinaries;
}
