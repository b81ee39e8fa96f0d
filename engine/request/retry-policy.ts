import { optionFlag, optionSetting } from '../options/read';
import type { RetryPolicy } from '../retry/policy';

/** The retries a request gets, from Options: Max Retries, Max Retry Wait, Max Wait on Rate Limit, Retry Timeouts. */
export function retryPolicy(options: Record<string, unknown>): RetryPolicy {
	return {
		maxRetries: optionSetting(options, 'maxRetries'),
		maxWaitMs: optionSetting(options, 'maxRetryWait'),
		retryTimeouts: optionFlag(options, 'retryTimeouts') === true,
		maxRateLimitWaitMs: optionSetting(options, 'maxRateLimitWait'),
	};
}
