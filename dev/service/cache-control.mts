/** A prompt cache breakpoint's `cache_control`, checked as OpenRouter checks it (see prompt-cache.mts). */
import { invalidRequest } from './errors.mts';
import { describe, isObject } from './json-value.mts';

export const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
export type Ttl = keyof typeof TTL_MS;

/** A checked `cache_control`: its TTL. */
export function parseCacheControl(value: unknown, at: string): Ttl {
	const ttl = isObject(value) ? (value.ttl ?? '5m') : undefined;
	if (
		!isObject(value) ||
		value.type !== 'ephemeral' ||
		!(typeof ttl === 'string' && ttl in TTL_MS)
	) {
		throw invalidRequest(
			`${at}: 'cache_control' must be {"type": "ephemeral"} with an optional 'ttl' of "5m" or "1h", got ${describe(value)}`,
			at,
			'invalid_value',
		);
	}
	return ttl as Ttl;
}
