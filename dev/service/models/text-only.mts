/**
 * Models without image input (any image_url part in the messages is a 400 naming the part), without file
 * input (`no-files-1`: any file part is the same 400), and without image output (every chat model but the image
 * model: `modalities` with "image" is a 404).
 */
import type { ChatMessage } from '../chat-messages.mts';
import type { ChatRequest } from '../chat-request.mts';
import { ApiError } from '../errors.mts';
import type { ModelDefinition } from './model.mts';

/** `messages[i].content[j]` of the first part of this type, if any. */
function firstPart(messages: readonly ChatMessage[], type: string): string | undefined {
	for (const [index, message] of messages.entries()) {
		if (!Array.isArray(message.content)) continue;
		const part = message.content.findIndex((candidate) => candidate.type === type);
		if (part >= 0) return `messages[${index}].content[${part}]`;
	}
	return undefined;
}

/** `model`, answering with `refusal`'s error (when it gives one) instead of the model's reply. */
function refusing(
	model: ModelDefinition,
	refusal: (request: ChatRequest) => ApiError | undefined,
): ModelDefinition {
	return {
		...model,
		respond(request, context) {
			const error = refusal(request);
			if (error !== undefined) throw error;
			return model.respond(request, context);
		},
	};
}

/** A 400 naming the first part of `type` (`what` the model cannot take), when the request carries one. */
function partRefusal(id: string, type: string, what: string) {
	return (request: ChatRequest): ApiError | undefined => {
		const param = firstPart(request.messages, type);
		if (param === undefined) return undefined;
		return new ApiError({
			status: 400,
			message: `The model \`${id}\` does not support ${what}`,
			type: 'invalid_request_error',
			param,
			code: 'model_not_supported',
		});
	};
}

export const textOnly = (model: ModelDefinition): ModelDefinition =>
	refusing(model, partRefusal(model.id, 'image_url', 'image input'));

export const withoutFiles = (model: ModelDefinition): ModelDefinition =>
	refusing(model, partRefusal(model.id, 'file', 'file input'));

/** A request for image output (`modalities` with "image"): OpenRouter's 404 for a model that has none. */
export const withoutImageOutput = (model: ModelDefinition): ModelDefinition =>
	refusing(model, (request) =>
		request.modalities.includes('image')
			? new ApiError({
					status: 404,
					message: `No endpoints found for \`${model.id}\` that support the requested output modalities: ${request.modalities.join(', ')}`,
					type: 'invalid_request_error',
					code: 'model_not_supported',
				})
			: undefined,
	);
