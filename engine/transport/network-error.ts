import { UserError } from 'n8n-workflow';

import { NetworkError, RefusedByN8n } from '../failures/errors';

/**
 * The NetworkError for a failed request, with the system error code (ECONNREFUSED, ...) found anywhere in
 * the error's cause chain. The original error carries the request options, Authorization header included,
 * so it is dropped.
 */
export function toNetworkError(url: string, error: unknown, timeoutMs?: number): NetworkError {
	const network = new NetworkError(url, errorCode(error), timeoutMs);
	if (error instanceof SentAgain) network.resent = 1;
	return network;
}

/** A request sent again on a new connection after a kept one closed before answering, which failed too: `cause`. */
export class SentAgain extends Error {
	constructor(cause: unknown) {
		super('Sent again on a new connection, and failed', { cause });
		this.name = 'SentAgain';
	}
}

/** n8n marks the errors of its request layer that no retry can fix (an SSRF block, ...) with this symbol. */
const N8N_NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

/**
 * The error n8n raised itself and marked as not worth retrying (e.g. its SSRF protection blocked the
 * address), or a user's error it raised (its request helper refusing a redirect hop outside the
 * credential's allowed domains), found in the cause chain: its message and description only, not the
 * request options. A refusal made here in n8n's words (the same hop check on the other route) is one
 * already.
 */
export function refusedByN8n(error: unknown): RefusedByN8n | undefined {
	if (error instanceof RefusedByN8n) return error;
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const level = current as { message?: unknown; description?: unknown; cause?: unknown };
		if (
			(current as Record<symbol, unknown>)[N8N_NON_RETRYABLE] === true ||
			(typeof UserError === 'function' && current instanceof UserError)
		) {
			const description = typeof level.description === 'string' ? level.description : '';
			return new RefusedByN8n(String(level.message), description);
		}
		current = level.cause;
	}
	return undefined;
}

/**
 * undici's codes (n8n's AI transport) as the system codes n8n's request helper gives for the same failure,
 * so that users read the same words whichever way the request went.
 */
const UNDICI_CODES: Record<string, string> = {
	UND_ERR_SOCKET: 'ECONNRESET',
	UND_ERR_CLOSED: 'ECONNRESET',
	UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
	UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
	UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
};

function errorCode(error: unknown): string {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const { code, cause, name } = current as { code?: unknown; cause?: unknown; name?: unknown };
		if (name === 'TimeoutError') return 'ETIMEDOUT';
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return UNDICI_CODES[code] ?? code;
		current = cause;
	}
	return 'UNKNOWN';
}
