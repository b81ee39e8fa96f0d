/** Models without image input: any image_url part in the messages is a 400 naming the part. */
import type { ChatMessage } from '../chat-messages.mts';
import { ApiError } from '../errors.mts';
import type { ModelDefinition } from './model.mts';

/** `messages[i].content[j]` of the first image_url part, if any. */
function firstImagePart(messages: readonly ChatMessage[]): string | undefined {
	for (const [index, message] of messages.entries()) {
		if (!Array.isArray(message.content)) continue;
		const part = message.content.findIndex((candidate) => candidate.type === 'image_url');
		if (part >= 0) return `messages[${index}].content[${part}]`;
	}
	return undefined;
}

/** `model`, rejecting requests that carry images before it answers. */
export function textOnly(model: ModelDefinition): ModelDefinition {
	return {
		...model,
		respond(request, context) {
			const param = firstImagePart(request.messages);
			if (param !== undefined) {
				throw new ApiError({
					status: 400,
					message: `The model \`${model.id}\` does not support image input`,
					type: 'invalid_request_error',
					param,
					code: 'model_not_supported',
				});
			}
			return model.respond(request, context);
		},
	};
}
