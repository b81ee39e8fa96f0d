/** What a model of another endpoint (embeddings, rerank) answers when asked for a chat completion. */
import { ApiError } from '../errors.mts';
import type { ModelDefinition } from './model.mts';

/** A 400 `model_not_supported` naming the model, what it is (`an embedding model`) and the endpoint it serves. */
export function notForChat(id: string, what: string, endpoint: string): ModelDefinition['respond'] {
	return () => {
		throw new ApiError({
			status: 400,
			message: `The model \`${id}\` is ${what} and does not support chat completions: use ${endpoint}`,
			type: 'invalid_request_error',
			code: 'model_not_supported',
		});
	};
}
