import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';

import { NetworkError, RefusedByN8n } from '../failures';

/** The one credential type this package defines. */
export const CREDENTIAL_TYPE = 'chatCompletionsApi';

/** What came back over HTTP, whatever the status: the parser decides what it means. */
export interface HttpReply {
	status: number;
	headers: Record<string, string>;
	text: string;
}

export interface Outgoing {
	method: IHttpRequestMethods;
	url: string;
	body?: unknown;
	/** Milliseconds to wait for the answer; while a body streams in, for its next bytes. */
	timeout: number;
	/** The credential n8n decrypted for this execution (`Connection.credential`); n8n reads it again when absent. */
	credential?: ICredentialDataDecryptedObject;
}

export interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

const decoder = new TextDecoder();

function bodyText(body: unknown): string {
	if (body instanceof ArrayBuffer || ArrayBuffer.isView(body))
		return decoder.decode(body as Uint8Array);
	if (typeof body === 'string') return body;
	return body === undefined || body === null ? '' : JSON.stringify(body);
}

export function headerMap(headers: Record<string, unknown>): Record<string, string> {
	const map: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		map[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return map;
}

/**
 * The NetworkError for a failed request, with the system error code (ECONNREFUSED, ...) found
 * anywhere in the error's cause chain. The original error carries the request options,
 * Authorization header included, so it is dropped.
 */
export function toNetworkError(url: string, error: unknown): NetworkError {
	return new NetworkError(url, errorCode(error));
}

/** n8n marks the errors of its request layer that no retry can fix (an SSRF block, ...) with this symbol. */
const N8N_NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

/**
 * The error n8n raised itself and marked as not worth retrying (e.g. its SSRF protection blocked the
 * address), found in the cause chain: its message and description only, not the request options.
 */
function refusedByN8n(error: unknown): RefusedByN8n | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const level = current as { message?: unknown; description?: unknown; cause?: unknown };
		if ((current as Record<symbol, unknown>)[N8N_NON_RETRYABLE] === true) {
			const description = typeof level.description === 'string' ? level.description : '';
			return new RefusedByN8n(String(level.message), description);
		}
		current = level.cause;
	}
	return undefined;
}

function errorCode(error: unknown): string {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const { code, cause, name } = current as { code?: unknown; cause?: unknown; name?: unknown };
		if (name === 'TimeoutError') return 'ETIMEDOUT';
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
		current = cause;
	}
	return 'UNKNOWN';
}

/** n8n's request options for `outgoing`: every status is answered, not thrown; the body as bytes or a stream. */
export function requestOptions(
	outgoing: Outgoing,
	encoding: 'arraybuffer' | 'stream',
): IHttpRequestOptions {
	return {
		method: outgoing.method,
		url: outgoing.url,
		headers: {
			Accept: 'application/json',
			...(outgoing.body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: outgoing.body === undefined ? undefined : JSON.stringify(outgoing.body),
		encoding,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: outgoing.timeout,
	};
}

/** The credential already decrypted, as n8n's request helper takes it, with the node's id and name of it. */
function decrypted(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	data: ICredentialDataDecryptedObject | undefined,
): IAdditionalCredentialOptions | undefined {
	if (data === undefined) return undefined;
	const { id, name } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
	return { credentialsDecrypted: { id: id ?? '', name, type: CREDENTIAL_TYPE, data } };
}

/**
 * Sends one request with the credential applied by n8n: the only place that talks to the service (but
 * for the credential test, which has no execution context). Every status is answered, not thrown;
 * throws NetworkError when no answer came.
 */
export async function sendWithCredential(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	outgoing: Outgoing,
	encoding: 'arraybuffer' | 'stream',
): Promise<FullResponse> {
	try {
		return (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			requestOptions(outgoing, encoding),
			decrypted(context, outgoing.credential),
		)) as FullResponse;
	} catch (error) {
		throw refusedByN8n(error) ?? toNetworkError(outgoing.url, error);
	}
}

/** Sends one request and reads the whole answer as text. */
export async function send(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	outgoing: Outgoing,
): Promise<HttpReply> {
	const response = await sendWithCredential(context, outgoing, 'arraybuffer');
	return {
		status: response.statusCode,
		headers: headerMap(response.headers),
		text: bodyText(response.body),
	};
}
