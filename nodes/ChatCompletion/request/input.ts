/** An image from the item's binary data, as n8n holds it. */
export interface BinaryImage {
	mimeType?: string;
	fileName?: string;
	bytes: Uint8Array;
}

/** The item's binary data the images may come from: loaded ones by property name, and every name it has. */
export interface ItemBinaries {
	available: string[];
	loaded: Record<string, BinaryImage>;
}

export interface ImageFields {
	imageUrls?: unknown;
	imageBinaryProperties?: unknown;
	imageDetail?: unknown;
}

/** What the node's parameters hold for one item, before any checking. */
export interface ChatInput extends ImageFields {
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
	/** The item's binary data that image fields and the placeholders of Messages JSON name; none when absent. */
	binaries?: ItemBinaries;
}
