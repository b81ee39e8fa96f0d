import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { media, type protocol } from '../../../engine';

/** The images of a reply, as the output item carries them: binary data, and what its JSON says of each. */
export interface ReplyImages {
	binary: IBinaryKeyData;
	/** Each image in order: the binary field it is in (and its type), or the URL the service gave. */
	images: IDataObject[];
}

/**
 * The images an image model sent in chat (`message.images`, OpenRouter's and Vercel AI Gateway's shape) as the
 * binary data `image_1`, `image_2`, ... of the output item, typed by their bytes; an http(s) URL is kept as the
 * URL. The reply's own copy then names them instead of holding their base64. None: undefined.
 */
export async function replyImages(
	context: IExecuteFunctions,
	completion: protocol.Completion,
): Promise<ReplyImages | undefined> {
	const message = completion.choices[0]?.message;
	const found = media.messageImages(message);
	if (found.length === 0 || message === undefined) return undefined;
	const binary: IBinaryKeyData = {};
	const images: IDataObject[] = [];
	for (const [at, image] of found.entries()) {
		if ('url' in image) {
			images.push({ url: image.url });
			continue;
		}
		const name = `image_${at + 1}`;
		const { mimeType, extension } = image.type;
		binary[name] = await context.helpers.prepareBinaryData(
			image.bytes,
			`${name}.${extension}`,
			mimeType,
		);
		images.push({ binary: name, mimeType });
	}
	message.images = images;
	return { binary, images };
}
