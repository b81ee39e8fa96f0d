import { isPlainObject } from '../values';

/**
 * The tokens of a request's prompt that a prompt cache served or stored, as the service counted them: the
 * `prompt_cache` field of Chat Completion's output item and of the Chat Model's log.
 */
export interface PromptCache {
	/** Read from the cache (billed at a fraction of the input price). */
	read_tokens?: number;
	/** Written to the cache (billed above the input price). */
	write_tokens?: number;
}

/**
 * Where gateways put the counts, first found wins: reads in `prompt_tokens_details.cached_tokens` (OpenAI,
 * OpenRouter, new-api, LiteLLM), `cache_read_input_tokens` (LiteLLM, as Anthropic names it) or
 * `prompt_cache_hit_tokens` (DeepSeek); writes in `prompt_tokens_details.cache_write_tokens` (OpenRouter),
 * `prompt_tokens_details.cached_creation_tokens` (new-api) or `cache_creation_input_tokens` (LiteLLM).
 */
const READ = [
	['prompt_tokens_details', 'cached_tokens'],
	['cache_read_input_tokens'],
	['prompt_cache_hit_tokens'],
];
const WRITE = [
	['prompt_tokens_details', 'cache_write_tokens'],
	['prompt_tokens_details', 'cached_creation_tokens'],
	['cache_creation_input_tokens'],
];

function first(usage: Record<string, unknown>, paths: string[][]): number | undefined {
	for (const path of paths) {
		let value: unknown = usage;
		for (const field of path) value = isPlainObject(value) ? value[field] : undefined;
		if (typeof value === 'number' && Number.isFinite(value)) return value;
	}
	return undefined;
}

/** The cache counts of a reply's `usage`; undefined when it reports none. */
export function promptCacheOf(usage: unknown): PromptCache | undefined {
	if (!isPlainObject(usage)) return undefined;
	const read = first(usage, READ);
	const write = first(usage, WRITE);
	if (read === undefined && write === undefined) return undefined;
	return {
		...(read === undefined ? {} : { read_tokens: read }),
		...(write === undefined ? {} : { write_tokens: write }),
	};
}
