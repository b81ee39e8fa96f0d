/** Per-key request limits over a sliding window; rejected requests do not count. */
import { maskKey } from './auth.mts';
import type { KeyRecord } from './config.mts';
import { ApiError } from './errors.mts';

export class RateLimiter {
	readonly #accepted = new Map<string, number[]>();

	/** Counts a request by `key` at `now` (ms), or throws 429 with `Retry-After` in whole seconds. */
	admit(key: KeyRecord, now: number): void {
		if (key.rateLimit === undefined) return;
		const { requests, windowSeconds } = key.rateLimit;
		const windowMs = windowSeconds * 1000;
		const recent = (this.#accepted.get(key.key) ?? []).filter((at) => at > now - windowMs);
		this.#accepted.set(key.key, recent);
		if (recent.length >= requests) {
			const retryAfter = Math.max(1, Math.ceil((recent[0] + windowMs - now) / 1000));
			throw new ApiError({
				status: 429,
				message:
					`Rate limit reached for requests per ${windowSeconds}s on key ${maskKey(key.key)}: ` +
					`Limit ${requests}, Used ${recent.length}, Requested 1. Please try again in ${retryAfter}s.`,
				type: 'rate_limit_error',
				code: 'rate_limit_exceeded',
				headers: { 'Retry-After': String(retryAfter) },
			});
		}
		recent.push(now);
	}
}
