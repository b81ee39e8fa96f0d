/** The route through n8n's request helper (`httpRequestWithAuthentication`): a new connection per request. */
import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';

import type { FullResponse, Outgoing, Sender, Sending } from './outgoing';
import { CREDENTIAL_TYPE } from '../connection';
import { withoutSecrets } from '../header-secrets';

/**
 * n8n's HTTP stack closes a socket that is idle for the request's timeout (a reset, not a timeout, to the
 * reader): it gets this much longer, so that the reader's own timers (the wait for the answer, then for each
 * next bytes) report a timeout as the timeout it is.
 */
const SOCKET_GRACE_MS = 1000;

/** The credential's Extra Headers `outgoing` carries: those without a secret when it goes without the key. */
function extraHeaders({ connection, keyless }: Outgoing): Record<string, string> | undefined {
	const headers = connection?.extraHeaders;
	return headers !== undefined && keyless === true ? withoutSecrets(headers) : headers;
}

/**
 * n8n's request options for `outgoing`: its body as JSON, or as it is under its own Content-Type (n8n's helper
 * sends a Buffer unchanged); every status is answered, not thrown; the reply's body as a stream when it
 * is read as it comes, else as bytes (n8n's HTTP stack hands a stream over through an async generator of its
 * own: for a reply read whole that was a seventh of a batch's CPU time).
 */
export function requestOptions(outgoing: Outgoing, allowedDomains?: string): IHttpRequestOptions {
	const { raw } = outgoing;
	const body =
		raw?.body ?? (outgoing.body === undefined ? undefined : JSON.stringify(outgoing.body));
	const contentType = raw?.contentType ?? (body === undefined ? undefined : 'application/json');
	return {
		method: outgoing.method,
		url: outgoing.url,
		// Extra Headers cannot name Content-Type (nor Authorization, which n8n adds from the credential).
		headers: {
			Accept: 'application/json',
			...extraHeaders(outgoing),
			...(contentType === undefined ? {} : { 'Content-Type': contentType }),
		},
		body,
		encoding: outgoing.stream ? 'stream' : 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: outgoing.timeout + SOCKET_GRACE_MS,
		...(allowedDomains === undefined ? {} : { allowedDomains }),
	};
}

/** The credential as n8n's request helper takes it, made once per credential: `getNode` copies the whole node. */
const helperCredentials = new WeakMap<
	ICredentialDataDecryptedObject,
	IAdditionalCredentialOptions
>();

/** The credential already decrypted, as n8n's request helper takes it, with the node's id and name of it. */
function decrypted(
	context: Sender,
	data: ICredentialDataDecryptedObject | undefined,
): IAdditionalCredentialOptions | undefined {
	if (data === undefined) return undefined;
	let options = helperCredentials.get(data);
	if (options === undefined) {
		const { id, name } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
		options = { credentialsDecrypted: { id: id ?? '', name, type: CREDENTIAL_TYPE, data } };
		helperCredentials.set(data, options);
	}
	return options;
}

/**
 * n8n's request helper takes its abort signal from the context it is called on (the execution's cancel):
 * called on a context that gives `cancel` instead, the request itself ends when the run stops or a model
 * call ends, not only the wait for it.
 */
function endedBy<C extends object>(context: C, cancel: AbortSignal | undefined): C {
	if (cancel === undefined) return context;
	const own = Object.create(context) as C & { getExecutionCancelSignal: () => AbortSignal };
	own.getExecutionCancelSignal = () => cancel;
	return own;
}

/**
 * Through n8n's request helper: n8n applies the credential (its plain helper, without the credential, for a
 * request `keyless`); a new connection for every request.
 */
export function viaHelper(context: Sender, outgoing: Outgoing, allowedDomains?: string): Sending {
	if (outgoing.keyless === true) {
		// n8n's plain helper takes its abort signal from the options, not from the context.
		const pending = context.helpers.httpRequest({
			...requestOptions(outgoing, allowedDomains),
			...(outgoing.cancel === undefined ? {} : { abortSignal: outgoing.cancel }),
		}) as Promise<FullResponse>;
		return { pending, abort: () => undefined };
	}
	// Every n8n context a node is given can send: the helper's `this` type names them all.
	const pending = context.helpers.httpRequestWithAuthentication.call(
		endedBy(context, outgoing.cancel) as IExecuteFunctions,
		CREDENTIAL_TYPE,
		requestOptions(outgoing, allowedDomains),
		decrypted(context, outgoing.connection?.credential),
	) as Promise<FullResponse>;
	return { pending, abort: () => undefined };
}
