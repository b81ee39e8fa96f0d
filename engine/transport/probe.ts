import type { HttpReply } from './outgoing';
import { toNetworkError } from './network-error';
import type { Connection } from '../connection';

const PROBE_TIMEOUT_MS = 20_000;

/**
 * A GET for the credential test (`{baseUrl}/models`, the balance endpoints), which n8n runs without an
 * execution context (so without n8n's request helper): costs no tokens. It gives up after `timeoutMs`.
 */
export async function probe(
	connection: Connection,
	url: string,
	timeoutMs = PROBE_TIMEOUT_MS,
): Promise<HttpReply> {
	try {
		const response = await fetch(url, {
			headers: {
				Accept: 'application/json',
				...connection.extraHeaders,
				Authorization: `Bearer ${connection.apiKey}`,
			},
			redirect: 'manual',
			signal: AbortSignal.timeout(timeoutMs),
		});
		const headers: Record<string, string> = {};
		response.headers.forEach((value, name) => (headers[name] = value));
		return { status: response.status, headers, text: await response.text() };
	} catch (error) {
		throw toNetworkError(url, error);
	}
}
