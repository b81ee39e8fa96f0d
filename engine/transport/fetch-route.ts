/** The route through n8n's own AI transport: global `fetch` with n8n's dispatcher, connections kept open. */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { fetchReply } from './fetch-reply';
import { requestOptions, viaHelper } from './helper-route';
import { n8nDispatcher } from './n8n-dispatcher';
import type { Outgoing, Sender, Sending } from './outgoing';
import { authorization } from '../connection';

/**
 * Whether `fetch` refused the port itself: the Fetch standard bars some ports (6000, 5060, 9 and others)
 * that n8n's helper connects to.
 */
function barredPort(error: unknown): boolean {
	return (error as { cause?: { message?: unknown } } | undefined)?.cause?.message === 'bad port';
}

/**
 * Through n8n's own AI transport (`n8n-dispatcher.ts`) with global `fetch`: connections kept open per
 * origin, the credential applied as its `authenticate` does. A port `fetch` bars goes through the helper.
 */
export function viaFetch(
	context: Sender,
	outgoing: Outgoing,
	credential: ICredentialDataDecryptedObject,
	allowedDomains: string | undefined,
): Sending {
	const ended = new AbortController();
	const { headers, body } = requestOptions(outgoing);
	const pending = fetchReply(
		{
			method: outgoing.method,
			url: outgoing.url,
			headers: {
				...(headers as Record<string, string>),
				Authorization: authorization(credential),
			},
			body: body as string | undefined,
			stream: outgoing.stream === true,
			signal: ended.signal,
			allowedDomains,
		},
		async (url) => await n8nDispatcher(context, url),
	).catch(async (error: unknown) =>
		barredPort(error)
			? await viaHelper(context, outgoing, allowedDomains).pending
			: await Promise.reject(error),
	);
	return { pending, abort: () => ended.abort() };
}
