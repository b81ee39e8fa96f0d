/**
 * Prompt caching as OpenRouter does it for Claude models: a `cache_control` `{type: "ephemeral", ttl?: "5m" |
 * "1h"}` on a content part marks a breakpoint (the prompt up to and including that part is cached); at the top
 * of the body it is automatic (the prompt up to the last message is cached). The first request with a prefix
 * writes it (`prompt_tokens_details.cache_write_tokens`), the next ones within the TTL read it
 * (`cached_tokens`); each read keeps it for another TTL. Words stand in for tokens, as in every usage here.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage } from './chat-messages.mts';
import { TTL_MS, type Ttl } from './cache-control.mts';
import type { Usage } from './completion.mts';
import { promptWords } from './message-text.mts';

/** Where a request caches: the messages of the cached prefix (the breakpoint's message last) and the TTL. */
export interface CachePoint {
	prefix: ChatMessage[];
	ttl: Ttl;
}

/** The last breakpoint of the messages, else the automatic one of a top-level `cache_control`; none without either. */
export function cachePoint(
	messages: ChatMessage[],
	automatic: Ttl | undefined,
): CachePoint | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const ttl = messages[index].cacheTtl;
		if (ttl !== undefined) return { prefix: messages.slice(0, index + 1), ttl };
	}
	if (automatic === undefined || messages.length < 2) return undefined;
	return { prefix: messages.slice(0, -1), ttl: automatic };
}

/** What one request did with the cache, for its usage. */
export interface CacheUse {
	read: number;
	written: number;
}

/** The cached prefixes of each key, until their TTL runs out; cleared with the request log. */
export class PromptCache {
	readonly #expires = new Map<string, number>();

	use(key: string, point: CachePoint, now = Date.now()): CacheUse {
		const id = createHash('sha256').update(key).update(JSON.stringify(point.prefix)).digest('hex');
		const tokens = promptWords(point.prefix);
		const hit = (this.#expires.get(id) ?? 0) > now;
		this.#expires.set(id, now + TTL_MS[point.ttl]);
		return hit ? { read: tokens, written: 0 } : { read: 0, written: tokens };
	}

	clear(): void {
		this.#expires.clear();
	}
}

/** The usage with what the request did with the cache, in OpenRouter's fields. */
export function withCacheUse(usage: Usage, use: CacheUse | undefined): Usage {
	if (use === undefined) return usage;
	return {
		...usage,
		prompt_tokens_details: { cached_tokens: use.read, cache_write_tokens: use.written },
	};
}

/** The request carries a `cache_control`, at the top or on a part. */
export function asksCaching(messages: ChatMessage[], automatic: Ttl | undefined): boolean {
	return automatic !== undefined || messages.some((message) => message.cacheTtl !== undefined);
}
