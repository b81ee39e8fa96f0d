import type { INodeExecutionData } from 'n8n-workflow';

import { media } from '../../../../engine';
import type { ItemContext } from '../item';
import { outputFileName } from '../item';

/**
 * The output items of an image reply: one per image, in order, each the image as binary data (named for its item
 * and its place in the reply, typed by its bytes) and in the JSON the model, the prompt the model used and the URL
 * it came from, never the image data. An image given by URL is downloaded through the run (`MediaClient.downloadImage`: the key only to the
 * Base URL's origin) as a stream into n8n's binary data.
 */
export async function imageItems(
	{ context, itemIndex, request }: ItemContext,
	client: media.MediaClient,
	images: media.ReplyImage[],
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const [at, image] of images.entries()) {
		const typed =
			'url' in image
				? await client.downloadImage(image.url, request)
				: { source: image.bytes, type: image.type };
		const { mimeType, extension } = typed.type;
		items.push({
			json: {
				model: request.model,
				...(image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt }),
				...('url' in image ? { url: image.url } : {}),
			},
			binary: {
				[request.output]: await context.helpers.prepareBinaryData(
					typed.source,
					outputFileName('image', itemIndex, extension, at),
					mimeType,
				),
			},
			pairedItem: { item: itemIndex },
		});
	}
	return items;
}
