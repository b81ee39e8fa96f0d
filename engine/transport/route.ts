import { allowedDomainsOf } from './allowed-domains';
import { viaDispatcher } from './dispatch-route';
import { viaHelper } from './helper-route';
import { n8nDispatcher } from './n8n-dispatcher';
import type { Outgoing, Sender, Sending } from './outgoing';
import type { Connection } from '../connection';

/**
 * The way a node's requests reach the service, chosen once per node execution (per supplied model, per
 * model list): every request then walks the same path.
 */
export interface Route {
	/** Sends one request; what ends it before its answer is in. */
	send(outgoing: Outgoing): Sending;
}

/**
 * n8n's own AI transport where this n8n has it (`n8n-dispatcher.ts`: connections kept open), else n8n's
 * request helper (a new connection per request): either way n8n's proxy settings, SSRF protection and
 * certificate trust, and the credential's allowed domains (read once here).
 */
export async function chooseRoute(
	context: Sender,
	{ baseUrl, credential }: Pick<Connection, 'baseUrl' | 'credential'>,
): Promise<Route> {
	if (credential === undefined) return { send: (outgoing) => viaHelper(context, outgoing) };
	const allowedDomains = allowedDomainsOf(context, credential, baseUrl);
	if ((await n8nDispatcher(context, baseUrl)) === undefined) {
		return { send: (outgoing) => viaHelper(context, outgoing, allowedDomains) };
	}
	return { send: (outgoing) => viaDispatcher(context, outgoing, credential, allowedDomains) };
}
