/**
 * Models without image input (any image_url part in the messages is a 400 naming the part), and without file
 * input (`no-files-1`: any file part is the same 400).
 */
import type { ChatMessage } from '../chat-messages.mts';
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

/** `model`, rejecting requests that carry a part of `type` (`what` it cannot take) before it answers. */
function refusing(model: ModelDefinition, type: string, what: string): ModelDefinition {
	return {
		...model,
		respond(request, context) {
			const param = firstPart(request.messages, type);
			if (param !== undefined) {
				throw new ApiError({
					status: 400,
					message: `The model \`${model.id}\` does not support ${what}`,
					type: 'invalid_request_error',
					param,
					code: 'model_not_supported',
				});
			}
			return model.respond(request, context);
		},
	};
}

export const textOnly = (model: ModelDefinition): ModelDefinition =>
	refusing(model, 'image_url', 'image input');

export const withoutFiles = (model: ModelDefinition): ModelDefinition =>
	refusing(model, 'file', 'file input');
