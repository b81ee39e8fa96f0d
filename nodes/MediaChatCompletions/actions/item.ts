import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { errors, isExpression, media, values } from '../../../engine';

/** How messages name the node's field of binary data. */
export const BINARY_FIELD = 'Input Binary Field';

/** One item's operation, checked before anything is sent: what it sends once admitted, and its output items. */
export interface ItemJob {
	request: media.MediaRequest;
	/** Sends the item's request (its files read only now) and makes its output items. */
	run(client: media.MediaClient): Promise<INodeExecutionData[]>;
}

/** What the node reads per item to make its job. */
export interface ItemContext {
	context: IExecuteFunctions;
	itemIndex: number;
	request: media.MediaRequest;
}

/**
 * An operation of the node: where it is (its Resource, its entry in Operation), its own fields (shown for it
 * alone), who sets each of its own wire fields (for Extra Body's error), and the job of one item, its parameters
 * mapped to the operation's input and its answer to output items.
 */
export interface Action<N extends media.MediaOperation> {
	resource: 'image' | 'audio';
	operation: INodePropertyOptions & { value: string; action: string };
	properties: INodeProperties[];
	sets: Parameters<typeof media.MediaClient.request<N>>[3];
	job(item: ItemContext): ItemJob;
}

/** Input Binary Field: the item's binary field (or fields) the operation reads. */
export const binaryFieldProperty = (hint: string, description: string): INodeProperties => ({
	displayName: BINARY_FIELD,
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	placeholder: 'e.g. data',
	hint,
	description,
});

/**
 * The item's binary field `name` as an upload read once admitted, or the error that names it, the field and the
 * binary fields the item has.
 */
export function itemUpload(
	{ context, itemIndex }: Pick<ItemContext, 'context' | 'itemIndex'>,
	name: string,
	field: string,
): media.ItemUpload {
	const binary = context.getInputData()[itemIndex]?.binary ?? {};
	const data = media.binaryProperty(
		{ available: Object.keys(binary), loaded: binary },
		name,
		field,
		'',
		`Name a binary field the item has in ${field}, or pass the file on to this node (e.g. from a Read Files node, a Webhook or an HTTP Request node).`,
	);
	return {
		field,
		source: media.binarySource(name, data),
		...(typeof data.bytes === 'number' ? { size: data.bytes } : {}),
		read: async () => ({
			bytes: await context.helpers.getBinaryDataBuffer(itemIndex, name),
			fileName: data.fileName,
			mimeType: data.mimeType,
		}),
	};
}

/**
 * The item's text parameter `name` (`label` in messages: Prompt, Text Input, Voice) as n8n resolved it,
 * non-empty; else the error naming `label` with `fix`. An expression that gives nothing says so in the chat
 * nodes' words: `is empty because its expression {{ $json.caption }} finds no field "caption" in the input item`.
 */
export function itemText(
	{ context, itemIndex }: Pick<ItemContext, 'context' | 'itemIndex'>,
	name: string,
	label: string,
	fix: string,
): string {
	const value = context.getNodeParameter(name, itemIndex);
	const raw = context.getNode().parameters[name];
	if ((value === undefined || value === null) && isExpression(raw)) {
		const itemJson = context.getInputData()[itemIndex]?.json;
		throw new errors.InputError(label, values.emptyExpression(raw, itemJson), fix);
	}
	return requiredText(value, label, fix);
}

/**
 * The file name of an output item's binary data: its kind, the input item's number (from 1) and, for a reply that
 * may hold several files (images), the file's number in it: `speech_2.mp3`, `image_2_1.png`. Names differ per item
 * and per file, so that Write Files to Disk keeps every one.
 */
export const outputFileName = (kind: string, itemIndex: number, extension: string, at?: number) =>
	`${[kind, itemIndex + 1, ...(at === undefined ? [] : [at + 1])].join('_')}.${extension}`;

/** `bytes` as a Buffer over the same memory (no copy), as n8n's binary helpers take it. */
export const asBuffer = (bytes: Uint8Array) =>
	Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A text the service needs, non-empty, as it is; else the error that names `field`, with `fix`. */
export function requiredText(value: unknown, field: string, fix: string): string {
	if (typeof value === 'string' && value.trim() !== '') return value;
	const problem =
		typeof value === 'string' ? 'is empty' : `must be text, got ${values.describe(value)}`;
	throw new errors.InputError(field, problem, fix);
}
