import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemParameters } from './parameters';
import { splitList } from '../../../engine/request/images';
import type { ChatInput, ItemBinaries } from '../../../engine/request/input';

/** Loads the binary properties that the image fields name; the request builder reports missing ones. */
async function loadBinaries(
	context: IExecuteFunctions,
	itemIndex: number,
	names: string[],
): Promise<ItemBinaries> {
	const binary = context.getInputData()[itemIndex]?.binary ?? {};
	const binaries: ItemBinaries = { available: Object.keys(binary), loaded: {} };
	for (const name of new Set(names)) {
		const data = binary[name];
		if (data === undefined) continue;
		const bytes = await context.helpers.getBinaryDataBuffer(itemIndex, name);
		binaries.loaded[name] = { mimeType: data.mimeType, fileName: data.fileName, bytes };
	}
	return binaries;
}

function binaryNames(fields: IDataObject[], field: string): string[] {
	return fields.flatMap((entry) => splitList(entry.imageBinaryProperties, field));
}

/** The UI parameters of one item, as they are after n8n resolved the item's expressions. */
export async function readInput(
	context: IExecuteFunctions,
	parameters: ItemParameters,
	itemIndex: number,
): Promise<ChatInput> {
	const parameter = (name: string, fallback?: unknown) => parameters.get(name, itemIndex, fallback);
	const promptType = parameter('promptType') as string;
	const toolsMode = parameter('toolsMode', 'none') as string;
	const input: ChatInput = {
		model: parameters.get('model', itemIndex, '', { extractValue: true }),
		promptType,
		toolsMode,
		options: parameter('options', {}) as Record<string, unknown>,
	};
	let imageSources: IDataObject[] = [];
	if (promptType === 'simple') {
		input.systemMessage = parameter('systemMessage', '');
		input.prompt = parameter('prompt', '');
		input.imageUrls = parameter('imageUrls', '');
		input.imageBinaryProperties = parameter('imageBinaryProperties', '');
		input.imageDetail = parameter('imageDetail', 'auto');
		imageSources = [{ imageBinaryProperties: input.imageBinaryProperties as string }];
	} else if (promptType === 'messages') {
		input.messages = parameter('messages', {});
		imageSources = ((input.messages as IDataObject).values as IDataObject[] | undefined) ?? [];
	} else if (promptType === 'json') {
		input.messagesJson = parameter('messagesJson');
		input.toolCallId = parameter('toolCallId', '');
		input.toolResult = parameter('toolResult', '');
	}
	if (toolsMode !== 'none') {
		input.tools = toolsMode === 'define' ? parameter('tools', {}) : undefined;
		input.toolsJson = toolsMode === 'json' ? parameter('toolsJson', '[]') : undefined;
		input.toolChoice = parameter('toolChoice', 'auto');
		input.toolChoiceFunction =
			input.toolChoice === 'function' ? parameter('toolChoiceFunction', '') : undefined;
	}
	input.binaries = await loadBinaries(
		context,
		itemIndex,
		binaryNames(imageSources, 'Image Binary Properties'),
	);
	return input;
}
