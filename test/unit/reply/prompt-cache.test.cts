/** The prompt cache's counts as each kind of gateway reports them in `usage`, read into one shape. */
import { promptCacheOf } from '../../../engine/reply/cache-usage';

test.each([
	[
		'OpenRouter: cached_tokens and cache_write_tokens in prompt_tokens_details',
		{ prompt_tokens: 900, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 800 } },
		{ read_tokens: 0, write_tokens: 800 },
	],
	[
		'new-api: its cached_creation_tokens for the writes',
		{
			prompt_tokens: 900,
			prompt_tokens_details: { cached_tokens: 800, cached_creation_tokens: 12 },
		},
		{ read_tokens: 800, write_tokens: 12 },
	],
	[
		"LiteLLM: Anthropic's names at the top of usage",
		{ prompt_tokens: 900, cache_read_input_tokens: 700, cache_creation_input_tokens: 100 },
		{ read_tokens: 700, write_tokens: 100 },
	],
	[
		'DeepSeek: prompt_cache_hit_tokens (it writes by itself and does not count the writes)',
		{ prompt_tokens: 900, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 260 },
		{ read_tokens: 640 },
	],
	[
		'OpenAI: reads only',
		{ prompt_tokens: 900, prompt_tokens_details: { cached_tokens: 512 } },
		{ read_tokens: 512 },
	],
])('%s', (_name, usage, expected) => {
	expect(promptCacheOf(usage)).toEqual(expected);
});

test.each([
	['no usage', undefined],
	['usage without cache counts', { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 }],
	['counts that are not numbers', { prompt_tokens_details: { cached_tokens: '5' } }],
])('%s: nothing', (_name, usage) => {
	expect(promptCacheOf(usage)).toBeUndefined();
});
