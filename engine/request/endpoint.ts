import { optionSetting, wireFields } from '../options/read';
import { checkExtraBody, setByOptions } from './build';
import { checkModel } from './model-id';
import { retryPolicy } from './retry-policy';
import type { RetryPolicy } from '../retry/policy';

/**
 * What every request of a sub-node's endpoint (`/embeddings`, `/rerank`) carries, checked once for all the
 * requests it is sent with: the model, Extra Body and the Options' wire fields, Timeout and the retries.
 */
export interface EndpointRequest {
	model: string;
	/** Extra Body and the Options' wire fields, sent with every request. */
	fields: Record<string, unknown>;
	timeout: number;
	retry: RetryPolicy;
}

/**
 * Checks the Model and the Options (ranges, Extra Body) before anything is sent. `reserved`: the body fields
 * the node sets itself, each with who sets it, which Extra Body may not set.
 */
export function endpointRequest(
	model: unknown,
	options: Record<string, unknown>,
	reserved: Record<string, string>,
): EndpointRequest {
	const fields = wireFields(options);
	const setBy = { ...reserved, ...setByOptions(fields) };
	return {
		model: checkModel(model),
		fields: { ...checkExtraBody(options.extraBody, setBy), ...fields },
		timeout: optionSetting(options, 'timeout'),
		retry: retryPolicy(options),
	};
}
