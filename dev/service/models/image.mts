/**
 * The image model `image-1`: it answers POST /v1/images/generations and /v1/images/edits (images-*.mts) with
 * images made in code (images/draw.mts), and in chat, as OpenRouter's and Vercel AI Gateway's image models do,
 * when the request asks for `modalities` with "image": the reply text and the images as data URLs in
 * `message.images` (how many: the `images` knob, default 1). Asked for text only, it answers with text.
 */
import type { ChatRequest } from '../chat-request.mts';
import { draw, SCALE } from '../images/draw.mts';
import { lastUserText } from '../message-text.mts';
import { limitedReply } from './echo.mts';
import { releaseDate, type ModelDefinition, type TextReply } from './model.mts';

export interface ImageModel extends ModelDefinition {
	/** The prompt as the model rewrote it (`revised_prompt`). */
	revise(prompt: string): string;
}

/** The size an image drawn in chat has: 1024x1024, drawn at 16x16 pixels. */
const CHAT_SIZE = 16 * SCALE;

function chatImages(id: string, request: ChatRequest): TextReply {
	const prompt = lastUserText(request.messages);
	if (!request.modalities.includes('image'))
		return limitedReply(`${id}-2026-11-01`, prompt, request);
	const count = request.knobs.images ?? 1;
	const images = Array.from({ length: count }, (_, index) => {
		const text = { prompt, image: `${index + 1} of ${count}`, size: `${CHAT_SIZE}x${CHAT_SIZE}` };
		const bytes = draw({ width: CHAT_SIZE, height: CHAT_SIZE, format: 'png', text });
		return `data:image/png;base64,${bytes.toString('base64')}`;
	});
	const content =
		count === 1 ? `Here is the image: ${prompt}` : `Here are ${count} images: ${prompt}`;
	return { kind: 'text', model: `${id}-2026-11-01`, content, finishReason: 'stop', images };
}

const imageModel = (id: string): ImageModel => ({
	id,
	created: releaseDate,
	ownedBy: 'local-images',
	revise: (prompt) => `${prompt}, in flat colours`,
	respond: (request) => chatImages(id, request),
});

export const imageModels: ImageModel[] = [imageModel('image-1')];

export function isImageModel(model: ModelDefinition): model is ImageModel {
	return 'revise' in model;
}
