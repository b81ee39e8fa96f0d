import { imageItems } from './image-items';
import { values } from '../../../../engine';
import type { Action } from '../item';

/** Image > Generate an Image: the Prompt to the operation's input, each image to an output item. */
export const generate: Action<'generate'> = {
	sets: { prompt: 'the Prompt field sets' },
	job: (item) => {
		const prompt = values.requiredText(
			item.context.getNodeParameter('prompt', item.itemIndex),
			'Prompt',
			'Describe the image to make, e.g. "A watercolour fox in the snow".',
		);
		const { request } = item;
		return {
			request,
			run: async (client) =>
				await imageItems(item, await client.call('generate', { request, prompt })),
		};
	},
};
