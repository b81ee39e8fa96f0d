import { imageItems } from './image-items';
import { itemPrompt, promptProperty, SET_BY_PROMPT } from '../prompt';
import { media } from '../../../../engine';
import type { Action } from '../item';

/** Image > Generate an Image: the Prompt to the operation's input, each image to an output item. */
export const generate: Action<'generate'> = {
	resource: 'image',
	operation: {
		name: 'Generate an Image',
		value: 'generate',
		action: 'Generate an image',
		description: `Make images from a prompt (${media.MediaClient.callOf('generate')})`,
	},
	properties: [promptProperty],
	sets: { prompt: SET_BY_PROMPT },
	job: (item) => {
		const prompt = itemPrompt(
			item,
			'Describe the image to make, e.g. "A watercolour fox in the snow".',
		);
		const { request } = item;
		return {
			request,
			run: async (client) =>
				await imageItems(item, client, await client.call('generate', { request, prompt })),
		};
	},
};
