/** The route through n8n's own AI transport: its dispatcher's own requests, connections kept open. */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { dispatchReply } from './dispatch-reply';
import { requestOptions } from './helper-route';
import { n8nDispatcher } from './n8n-dispatcher';
import type { Outgoing, Sender, Sending } from './outgoing';
import { authorization } from '../connection';

/**
 * Through n8n's own AI transport (`n8n-dispatcher.ts`): connections kept open per origin, the credential
 * applied as its `authenticate` does (not to a request `keyless`).
 */
export function viaDispatcher(
	context: Sender,
	outgoing: Outgoing,
	credential: ICredentialDataDecryptedObject,
	allowedDomains: string | undefined,
): Sending {
	const ended = new AbortController();
	const { headers, body } = requestOptions(outgoing);
	const pending = dispatchReply(
		{
			method: outgoing.method,
			url: outgoing.url,
			headers: {
				...(headers as Record<string, string>),
				...(outgoing.keyless === true ? {} : { Authorization: authorization(credential) }),
			},
			body: body as string | Buffer | undefined,
			stream: outgoing.stream === true,
			...(outgoing.once === true ? { once: true as const } : {}),
			signal: ended.signal,
			allowedDomains,
		},
		async (url) => await n8nDispatcher(context, url),
	);
	return { pending, abort: () => ended.abort() };
}
