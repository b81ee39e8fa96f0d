import { imageItems } from './image-items';
import { itemPrompt, promptProperty, SET_BY_PROMPT } from '../prompt';
import { errors, media, values } from '../../../../engine';
import type { Action } from '../item';
import { BINARY_FIELD, binaryFieldProperty, itemUpload } from '../item';

const SET_BY_BINARY = `the ${BINARY_FIELD} sets`;

/**
 * Image > Edit an Image: the Prompt, the images of Input Binary Field (in order) and Options > Mask to the
 * operation's input, each image of the reply to an output item.
 */
export const edit: Action<'edit'> = {
	resource: 'image',
	operation: {
		name: 'Edit an Image',
		value: 'edit',
		action: 'Edit an image',
		description: `Change images by a prompt (${media.MediaClient.callOf('edit')})`,
	},
	properties: [
		promptProperty,
		binaryFieldProperty(
			'The names of the binary fields of the images, separated by commas, in order',
			'The binary fields of the item that hold the images to edit: one, or several separated by commas (sent in that order)',
		),
	],
	sets: { prompt: SET_BY_PROMPT, image: SET_BY_BINARY, 'image[]': SET_BY_BINARY },
	job: (item) => {
		const { context, itemIndex, request } = item;
		const prompt = itemPrompt(item, 'Describe the change, e.g. "Add a red hat".');
		const names = values.splitList(
			context.getNodeParameter('binaryPropertyName', itemIndex),
			BINARY_FIELD,
		);
		if (names.length === 0) {
			throw new errors.InputError(
				BINARY_FIELD,
				'is empty',
				'Name the binary field of the image, e.g. data.',
			);
		}
		const images = names.map((name) => itemUpload(item, name, BINARY_FIELD));
		const mask =
			request.mask === undefined ? undefined : itemUpload(item, request.mask, 'Options > Mask');
		return {
			request,
			run: async (client) =>
				await imageItems(
					item,
					client,
					await client.call('edit', { request, prompt, images, mask }),
				),
		};
	},
};
