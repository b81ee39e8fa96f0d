import type { Notice } from './operation';
import type { Around } from '../request';

/**
 * The images asked for (`n`: Options > Number of Images or Extra Body; 1 when not set, as the services take it)
 * against those a reply gave, when they differ: some models make one image a request whatever `n` says, a few
 * make more. The images that came are kept either way; the notice says how many of how many.
 */
export function imageCountNotice(images: readonly unknown[], request: Around): Notice | undefined {
	const asked = typeof request.fields.n === 'number' ? request.fields.n : 1;
	const made = images.length;
	if (made === asked) return undefined;
	const model = `The image model "${request.model}"`;
	const option = 'Options > Number of Images';
	return {
		topic: `images ${made} of ${asked}`,
		message:
			made < asked
				? `${model} made ${made} image${made === 1 ? '' : 's'} of the ${asked} asked for (${option}): some models make one image a request, whatever n says. To get ${asked}, send ${asked} items of one image each, or choose a model that makes several.`
				: `${model} made ${made} images where ${asked} ${asked === 1 ? 'was' : 'were'} asked for (${option}): each is an output item of its own.`,
	};
}
