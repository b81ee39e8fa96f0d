import { IMAGE_MODEL } from './failure-words';
import { imageCountNotice } from './image-count';
import type { ItemUpload, MediaInput, MediaOperationRow } from './operation';
import type { MediaFile } from '../multipart';
import { formBody } from '../multipart';
import { count, output, size } from '../options';
import type { ReplyImage } from '../read-images';
import { readImages } from '../read-images';
import type { Around } from '../request';
import { formParts, imageUpload } from '../request';
import type { TextOption } from '../../options/table';

/** Edit an Image: the prompt (checked by the node), the images in order and the mask, read once admitted. */
export interface EditInput extends MediaInput {
	prompt: string;
	images: readonly ItemUpload[];
	mask?: ItemUpload;
}

/** POST /images/edits: `image` (several: `image[]`, in order), `mask`, `prompt`, `model`, `n?`, `size?`. */
export function editParts(
	request: Around,
	prompt: string,
	images: readonly MediaFile[],
	maskFile?: MediaFile,
) {
	const name = images.length === 1 ? 'image' : 'image[]';
	return formParts(request, { prompt }, [
		...images.map((file) => ({ name, file })),
		...(maskFile === undefined ? [] : [{ name: 'mask', file: maskFile }]),
	]);
}

/** An image of the item, read now, named and typed by its bytes. */
const upload = async (image: ItemUpload) =>
	imageUpload(await image.read(), image.source, image.field);

const mask = {
	kind: 'text',
	name: 'mask',
	label: 'Mask',
	default: 'mask',
	placeholder: 'e.g. mask',
	description:
		'The binary field of a PNG mask: its fully transparent areas show where the image is changed (mask). Not added, the model decides what to change.',
} as const satisfies TextOption;

export const edit = {
	endpoint: {
		operation: 'edit',
		name: 'image edit',
		offers: 'image edits',
		model: IMAGE_MODEL,
		uploads: 'images',
	},
	models: 'image',
	paths: { openai: 'images/edits' },
	options: [count, size, mask, output],
	ownFields: ['prompt', 'image', 'image[]'],
	body: async ({ request, prompt, images, mask: maskUpload }) => {
		const files = [];
		for (const image of images) files.push(await upload(image));
		const maskFile = maskUpload === undefined ? undefined : await upload(maskUpload);
		return formBody(editParts(request, prompt, files, maskFile));
	},
	read: (reply, _input, at) => readImages(reply, at),
	notice: (images, { request }) => imageCountNotice(images, request),
} as const satisfies MediaOperationRow<EditInput, ReplyImage[]>;
