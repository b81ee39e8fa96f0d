/**
 * Fields of a chat request that the gateway which answered is documented to drop. The Portkey AI Gateway
 * forwards to an OpenAI-shaped service only the chat fields its OpenAI provider knows (`OpenAIChatCompleteConfig`
 * in its src/providers/openai/chatComplete.ts, 1.15.2: the body is rebuilt from that list), so Extra Body's
 * `provider`, `top_k` or `transforms` and Prompt Caching's top-level `cache_control` never reach the service;
 * its proxy route (`/v1/proxy/...`, documented for paths its unified routes would take) passes the body as it is.
 * A reply says Portkey answered by its `x-portkey-*` response headers.
 */

/** The chat fields Portkey 1.15.2 forwards to an OpenAI-shaped service. */
const PORTKEY_FORWARDS = new Set([
	'model',
	'messages',
	'functions',
	'function_call',
	'max_tokens',
	'temperature',
	'top_p',
	'n',
	'stream',
	'stop',
	'presence_penalty',
	'frequency_penalty',
	'logit_bias',
	'user',
	'seed',
	'tools',
	'tool_choice',
	'response_format',
	'logprobs',
	'top_logprobs',
	'stream_options',
	'service_tier',
	'parallel_tool_calls',
	'max_completion_tokens',
	'store',
	'metadata',
	'modalities',
	'audio',
	'prediction',
	'reasoning_effort',
	'web_search_options',
	'prompt_cache_key',
	'safety_identifier',
	'verbosity',
]);

/** Whether Portkey answered: its response headers (`x-portkey-trace-id`, `x-portkey-retry-attempt-count`, ...). */
const fromPortkey = (headers: Record<string, string>) =>
	Object.keys(headers).some((name) => name.toLowerCase().startsWith('x-portkey-'));

/** Portkey's proxy route, which it takes for any path that holds it (src/handlers/services/providerContext.ts). */
const PROXY_ROUTE = '/v1/proxy';

/** The fields of `body`, sent to `url`, that the gateway that answered with `headers` did not forward (none: undefined). */
export function notForwarded(
	url: string,
	headers: Record<string, string>,
	body: Record<string, unknown>,
): string[] | undefined {
	if (!fromPortkey(headers) || new URL(url).pathname.includes(PROXY_ROUTE)) return undefined;
	const dropped = Object.keys(body).filter((field) => !PORTKEY_FORWARDS.has(field));
	return dropped.length === 0 ? undefined : dropped;
}

/**
 * What the user reads of fields the gateway did not forward, and the way it documents to pass them: its proxy
 * route under the credential's Base URL (`baseUrl`, which ends with /v1 at a Portkey gateway).
 */
export function notForwardedWarning(fields: string[], baseUrl: string): string {
	const named = fields.map((field) => `"${field}"`).join(', ');
	const them = fields.length === 1 ? 'it' : 'them';
	const proxy = /\/v1$/.test(baseUrl)
		? baseUrl.replace(/\/v1$/, PROXY_ROUTE)
		: `the gateway's address followed by ${PROXY_ROUTE}`;
	return `Not forwarded by the gateway: ${named}. Portkey (its x-portkey-* headers are on the reply) passes on to the service behind it only the OpenAI chat fields it knows, so the service never got ${them}. To send ${them}, set the credential's Base URL to its proxy route, which passes the body as it is (${proxy}), or leave ${them} out.`;
}
