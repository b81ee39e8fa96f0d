import type { MediaInput, MediaOperationRow } from './operation';
import { count, imageFormat, output, quality, size } from '../options';
import type { ReplyImage } from '../read-images';
import { readImages } from '../read-images';
import type { Around } from '../request';
import { IMAGE_MODEL } from './models';

/** Generate an Image: the prompt, checked by the node. */
export interface GenerateInput extends MediaInput {
	prompt: string;
}

/**
 * POST /images/generations: `{model, prompt, n, size?, quality?, response_format}`, with one image and the
 * image data in the reply unless Options say otherwise.
 */
export function generationBody(request: Around, prompt: string): Record<string, unknown> {
	return { n: 1, response_format: 'b64_json', ...request.fields, model: request.model, prompt };
}

export const generate = {
	endpoint: {
		operation: 'generate',
		name: 'image generation',
		offers: 'image generation',
		model: IMAGE_MODEL,
	},
	paths: { openai: 'images/generations' },
	options: [count, size, quality, imageFormat, output],
	ownFields: ['prompt'],
	body: async ({ request, prompt }) => ({ body: generationBody(request, prompt) }),
	read: (reply, _input, at) => readImages(reply, at),
} as const satisfies MediaOperationRow<GenerateInput, ReplyImage[]>;
