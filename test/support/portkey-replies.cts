/**
 * What the Portkey AI Gateway (1.15.2) answers, as it writes it, for a small loopback gateway
 * (`useLeakyGateway(portkeyReplies)`) to answer by model: shapes our local service never sends. Its own
 * refusals are `{status: "failure", message}`; the upstream's errors come as `{error: {...}}`; a text answer,
 * or its own failure to reach the service behind it (src/handlers/retryHandler.ts: `Message: ... Cause: ...
 * Name: ...`), as `{"html-message": ...}`. Every answer carries its `x-portkey-*` response headers.
 */
import type { Answer, LeakyAnswer } from './leaky-gateway.cts';
import { completion } from './leaky-gateway.cts';

/** The headers Portkey puts on every answer (src/globals.ts, RESPONSE_HEADER_KEYS). */
export const PORTKEY_HEADERS = {
	'x-portkey-last-used-option-index': 'config',
	'x-portkey-retry-attempt-count': '0',
	'x-portkey-trace-id': '7c6a4e9e-93c8-4d1b-8f47-2f2b6d0e1a55',
};

/**
 * A port nothing listens on behind the gateway, as its words name it. Not a port fetch refuses to connect to
 * (9, 6000, ...): for those the real Portkey says `Cause: Error: bad port`, without the address.
 */
export const UPSTREAM = '127.0.0.1:8399';

const portkey = (status: number, body: unknown): Answer => ({
	status,
	headers: PORTKEY_HEADERS,
	body: JSON.stringify(body),
});

const unreached = `Message: fetch failed Cause: Error: connect ECONNREFUSED ${UPSTREAM} Name: TypeError`;

export const portkeyReplies: Record<string, LeakyAnswer> = {
	'portkey-no-provider': () =>
		portkey(400, {
			status: 'failure',
			message: 'Either x-portkey-config or x-portkey-provider header is required',
		}),
	'portkey-custom-host': () => portkey(400, { status: 'failure', message: 'Invalid custom host' }),
	'portkey-unreached-html-message': () => portkey(500, { 'html-message': unreached }),
	'portkey-unreached-status-message': () => portkey(500, { status: 'failure', message: unreached }),
	'portkey-unreached-error': () =>
		portkey(500, {
			error: { message: `openai error: ${unreached}`, type: null, param: null, code: null },
			provider: 'openai',
		}),
	'portkey-answer': () => ({
		...completion('portkey-answer', { role: 'assistant', content: 'Hello there' }),
		headers: PORTKEY_HEADERS,
	}),
};
