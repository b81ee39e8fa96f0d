import {
	IncompleteReplyError,
	isModelUnavailable,
	isOutOfBalance,
	RateLimitWaitExceeded,
	ServiceError,
} from '../failures';
import { isRateLimit, isTimeout } from '../retry/policy';

/**
 * A 400 (or 422) that says the model lacks a capability the request uses: images (vision), tools
 * (function calling), a response format or JSON schema. The service's words are the only sign, so only
 * wordings that name the capability and say it is missing count.
 */
const CAPABILITY =
	/\b(image|images|image_url|vision|multimodal|tools?|tool[ _]use|function[ _]?call(ing)?|functions|response_format|json_schema|structured output)\b/i;
const LACKS =
	/\b(not support(ed)?|does not support|doesn't support|unsupported|only supported by|no endpoints? found that support|unavailable|not available|not enabled|cannot (accept|take|process))\b/i;

function lacksCapability(error: ServiceError): boolean {
	if (error.status !== 400 && error.status !== 422 && error.status !== 404) return false;
	if (error.errorCode === 'model_not_supported') return true;
	return CAPABILITY.test(error.serviceMessage) && LACKS.test(error.serviceMessage);
}

/**
 * Whether another model may succeed where this one failed (Options > Fallback Models): the model does not
 * exist or the key's group cannot reach it (404, 403 that is not the balance, a gateway's "no channel",
 * `model_not_found`), its rate limit's wait ran out, a server error after the retries (also an error inside
 * a 200), no answer within Timeout, a reply the gateway cut off, or a 400 that names a capability the model
 * lacks. Never what every model would share: the key (401), the balance (402, quota codes), a request
 * wrong in itself (other 4xx), the network on the way to the service, a cancel or a stop.
 */
export function anotherModelMayHelp(error: unknown): boolean {
	if (error instanceof RateLimitWaitExceeded) return true;
	if (error instanceof IncompleteReplyError) return true;
	if (isTimeout(error)) return true;
	if (!(error instanceof ServiceError)) return false;
	if (isOutOfBalance(error)) return false;
	if (isModelUnavailable(error) || isRateLimit(error)) return true;
	const { status } = error;
	if (status === 403 || status === 404 || status >= 500 || (status >= 200 && status < 300)) {
		return true;
	}
	return lacksCapability(error);
}
