import { NetworkError, ServiceError } from '../../../engine/failures/errors';
import { isRetryable, retryDelay } from '../../../engine/retry/policy';

const service = (status: number, code?: string, retryAfterMs?: number, type?: string) =>
	new ServiceError(status, 'message', type, code, 'json', retryAfterMs);
const policy = { maxRetries: 5, maxWaitMs: 60_000, maxRateLimitWaitMs: 300_000 };

describe('what is retried', () => {
	test.each([
		[service(429), true],
		[service(500), true],
		[service(502), true],
		[service(503), true],
		[service(504), true],
		[new NetworkError('u', 'ECONNRESET'), true],
		[new NetworkError('u', 'ECONNREFUSED'), true],
		[new NetworkError('u', 'EAI_AGAIN'), true],
		// A timed-out request may still be written (and billed) by the service: not sent again by default.
		[new NetworkError('u', 'ETIMEDOUT'), false],
		[new NetworkError('u', 'ECONNABORTED'), false],
		[service(400), false],
		[service(401), false],
		[service(402), false],
		[service(403), false],
		[service(404), false],
		[service(429, 'insufficient_quota'), false],
		[service(403, 'insufficient_user_quota'), false],
		[service(503, 'model_not_found'), false],
		[service(429, undefined, undefined, 'insufficient_quota'), false],
		[service(200), false],
		[new NetworkError('u', 'ERR_CANCELED'), false],
		[new Error('anything else'), false],
	])('%s → %s', (error, expected) => {
		expect(isRetryable(error)).toBe(expected);
	});
});

test('timeouts are retried only when Retry Timeouts is on', () => {
	const timeout = new NetworkError('u', 'ECONNABORTED');
	expect(isRetryable(timeout, true)).toBe(true);
	expect(retryDelay(timeout, 1, 0, policy, () => 1)).toBeUndefined();
	expect(retryDelay(timeout, 1, 0, { ...policy, retryTimeouts: true }, () => 1)).toBe(500);
});

describe('how long to wait', () => {
	test('exponential backoff with full jitter: between 0 and 500 ms × 2^(n-1), capped at 30 s', () => {
		expect(
			[1, 2, 3, 4].map((failed) => retryDelay(service(503), failed, 0, policy, () => 1)),
		).toEqual([500, 1000, 2000, 4000]);
		expect(retryDelay(service(503), 3, 0, policy, () => 0.5)).toBe(1000);
		expect(retryDelay(service(503), 1, 0, policy, () => 0)).toBe(0);
		expect(retryDelay(service(503), 10, 0, { ...policy, maxRetries: 20 }, () => 1)).toBe(30_000);
	});

	test('Retry-After is waited exactly', () => {
		expect(retryDelay(service(429, undefined, 1500), 1, 0, policy, () => 0.1)).toBe(1500);
	});

	test('no more attempts than Max Retries, no more waiting than Max Retry Wait', () => {
		expect(retryDelay(service(503), 6, 0, policy, () => 1)).toBeUndefined();
		expect(retryDelay(service(429, undefined, 5000), 1, 56_000, policy)).toBeUndefined();
		expect(retryDelay(service(429, undefined, 4000), 1, 56_000, policy)).toBe(4000);
	});
});
