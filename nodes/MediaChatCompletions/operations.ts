import type { IBinaryData, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { errors, media, values } from '../../engine';

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

/** An item's binary data: checked to be there now, read when the request is sent. */
interface ItemBinary {
	name: string;
	data: IBinaryData;
}

/** The item's binary field `name`, or the error that names it, the field and the binary fields the item has. */
function itemBinary({ context, itemIndex }: ItemContext, name: string, field: string): ItemBinary {
	const binary = context.getInputData()[itemIndex]?.binary ?? {};
	const data = media.binaryProperty(
		{ available: Object.keys(binary), loaded: binary },
		name,
		field,
		'',
		`Name a binary field the item has in ${field}, or pass the file on to this node (e.g. from a Read Files node, a Webhook or an HTTP Request node).`,
	);
	return { name, data };
}

/** The bytes of an item's binary field, with the name and type n8n knows. */
async function readFile({ context, itemIndex }: ItemContext, binary: ItemBinary) {
	const bytes = await context.helpers.getBinaryDataBuffer(itemIndex, binary.name);
	return { bytes, fileName: binary.data.fileName, mimeType: binary.data.mimeType };
}

/** `bytes` as a Buffer over the same memory (no copy), as n8n's binary helpers take it. */
const asBuffer = (bytes: Uint8Array) =>
	Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The multipart body of `parts`, as the client sends it. */
const form = (parts: ReturnType<typeof media.editParts>): media.MediaBody => {
	const { contentType, body } = media.multipartBody(parts);
	return { raw: { contentType, body } };
};

/**
 * The output items of an image reply: one per image, in order, each the image as binary data (named and typed
 * by its bytes) and in the JSON the model, the prompt the model used and the URL it came from, never the image
 * data. An image given by URL is downloaded with n8n's request helper, without the key or Extra Headers.
 */
async function imageItems(
	{ context, itemIndex, request }: ItemContext,
	images: media.ReplyImage[],
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const [at, image] of images.entries()) {
		const typed =
			'url' in image
				? media.downloadedImage(
						(await context.helpers.httpRequest({
							method: 'GET',
							url: image.url,
							encoding: 'arraybuffer',
							timeout: request.timeout,
						})) as Uint8Array,
						image.url,
					)
				: image;
		const { mimeType, extension } = typed.type;
		items.push({
			json: {
				model: request.model,
				...(image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt }),
				...('url' in image ? { url: image.url } : {}),
			},
			binary: {
				[request.output]: await context.helpers.prepareBinaryData(
					asBuffer(typed.bytes),
					`image_${at + 1}.${extension}`,
					mimeType,
				),
			},
			pairedItem: { item: itemIndex },
		});
	}
	return items;
}

function generate(item: ItemContext): ItemJob {
	const body = media.generationBody(
		item.request,
		item.context.getNodeParameter('prompt', item.itemIndex),
	);
	return {
		request: item.request,
		run: async (client) =>
			await imageItems(
				item,
				await client.images('images/generations', item.request, async () => ({ body })),
			),
	};
}

function edit(item: ItemContext): ItemJob {
	const { context, itemIndex, request } = item;
	const field = media.MEDIA_FIELDS.binaryPropertyName;
	const prompt = media.imagePrompt(context.getNodeParameter('prompt', itemIndex), 'edit');
	const names = values.splitList(context.getNodeParameter('binaryPropertyName', itemIndex), field);
	if (names.length === 0) {
		throw new errors.InputError(
			field,
			'is empty',
			'Name the binary field of the image, e.g. data.',
		);
	}
	const images = names.map((name) => itemBinary(item, name, field));
	const mask =
		request.mask === undefined ? undefined : itemBinary(item, request.mask, 'Options > Mask');
	const upload = async (binary: ItemBinary, which: string) =>
		media.imageUpload(
			await readFile(item, binary),
			media.binarySource(binary.name, binary.data),
			which,
		);
	return {
		request,
		run: async (client) =>
			await imageItems(
				item,
				await client.images('images/edits', request, async () => {
					const files = [];
					for (const image of images) files.push(await upload(image, field));
					const maskFile = mask === undefined ? undefined : await upload(mask, 'Options > Mask');
					return form(media.editParts(request, prompt, files, maskFile));
				}),
			),
	};
}

function transcribe(
	item: ItemContext,
	path: 'audio/transcriptions' | 'audio/translations',
): ItemJob {
	const { context, itemIndex, request } = item;
	const field = media.MEDIA_FIELDS.binaryPropertyName;
	const name = context.getNodeParameter('binaryPropertyName', itemIndex);
	if (typeof name !== 'string' || name.trim() === '') {
		throw new errors.InputError(
			field,
			'is empty',
			'Name the binary field of the recording, e.g. data.',
		);
	}
	const recording = itemBinary(item, name.trim(), field);
	// n8n knows the size of what it stored: a recording over the limit is refused before it is read.
	const { bytes } = recording.data;
	if (typeof bytes === 'number') {
		media.checkRecordingSize(bytes, media.binarySource(recording.name, recording.data));
	}
	return {
		request,
		run: async (client) => {
			const { text, details } = await client.transcript(path, request, async () =>
				form(
					media.transcriptionParts(request, media.recordingUpload(await readFile(item, recording))),
				),
			);
			return [{ json: { text, ...details }, pairedItem: { item: itemIndex } }];
		},
	};
}

function speak(item: ItemContext): ItemJob {
	const { context, itemIndex, request } = item;
	const body = media.speechBody(
		request,
		context.getNodeParameter('input', itemIndex),
		context.getNodeParameter('voice', itemIndex),
	);
	return {
		request,
		run: async (client) => {
			const speech = await client.speech(request, async () => ({ body }));
			const { mimeType, extension } = speech.type;
			const binary = await context.helpers.prepareBinaryData(
				asBuffer(speech.bytes),
				`speech.${extension}`,
				mimeType,
			);
			return [
				{
					json: { model: request.model, voice: body.voice as string },
					binary: { [request.output]: binary },
					pairedItem: { item: itemIndex },
				},
			];
		},
	};
}

/** Each operation's job for one item. */
export const OPERATION_JOBS: Record<media.MediaOperation, (item: ItemContext) => ItemJob> = {
	generate,
	edit,
	transcribe: (item) => transcribe(item, 'audio/transcriptions'),
	translate: (item) => transcribe(item, 'audio/translations'),
	speak,
};
