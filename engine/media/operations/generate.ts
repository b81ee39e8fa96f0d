import { IMAGE_MODEL } from './failure-words';
import { imageCountNotice } from './image-count';
import type { MediaInput, MediaOperationRow } from './operation';
import { count, output, size } from '../options';
import type { ReplyImage } from '../read-images';
import { readImages } from '../read-images';
import type { Around } from '../request';
import type { ChoiceOption, TextOption } from '../../options/table';

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

const quality = {
	kind: 'text',
	name: 'quality',
	label: 'Quality',
	default: 'high',
	placeholder: 'e.g. high',
	wire: 'quality',
	description:
		"The image's quality (quality) as the model names it: low, medium, high or auto (gpt-image), hd or standard (DALL·E 3). Not added, the model decides.",
} as const satisfies TextOption;

const imageFormat = {
	kind: 'choice',
	name: 'responseFormat',
	label: 'Response Format',
	default: 'b64_json',
	wire: 'response_format',
	choices: [
		{
			name: 'Image Data',
			value: 'b64_json',
			description: 'The image comes in the reply (b64_json)',
		},
		{
			name: 'URL',
			value: 'url',
			description:
				"The reply gives a link, which the node downloads (with the key only on the Base URL's own host) and keeps in the item's JSON",
		},
	],
	description: 'How the service hands over each image (response_format)',
} as const satisfies ChoiceOption;

export const generate = {
	endpoint: {
		operation: 'generate',
		name: 'image generation',
		offers: 'image generation',
		model: IMAGE_MODEL,
	},
	models: 'image',
	paths: { openai: 'images/generations' },
	options: [count, size, quality, imageFormat, output],
	ownFields: ['prompt'],
	body: async ({ request, prompt }) => ({ body: generationBody(request, prompt) }),
	read: (reply, _input, at) => readImages(reply, at),
	notice: (images, { request }) => imageCountNotice(images, request),
} as const satisfies MediaOperationRow<GenerateInput, ReplyImage[]>;
