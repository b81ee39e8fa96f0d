import type { INodeExecutionData } from 'n8n-workflow';

import { media } from '../../../../engine';
import type { ItemContext } from '../item';
import { asBuffer } from '../item';

/**
 * The output items of an image reply: one per image, in order, each the image as binary data (named and typed
 * by its bytes) and in the JSON the model, the prompt the model used and the URL it came from, never the image
 * data. An image given by URL is downloaded with n8n's request helper, without the key or Extra Headers.
 */
export async function imageItems(
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
