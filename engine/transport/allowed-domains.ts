import { assertUrlAllowed, getCredentialAllowedDomains } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import { RefusedByN8n } from '../failures/errors';

/** The lists read, per credential n8n decrypted (`getNode` copies the whole node). */
const lists = new WeakMap<ICredentialDataDecryptedObject, { domains?: string }>();

/**
 * The credential's allowed domains (the options n8n adds to a credential with `authenticate`: Allowed
 * HTTP Request Domains, Allowed Domains) as n8n reads them for a node's own endpoint (its declarative
 * nodes do so): the credential's Base URL always works, "None" does not block the credential's own
 * nodes, and a list of domains limits where a redirect may take the request. Undefined when nothing is
 * limited, and on an n8n that does not have these options.
 */
export function allowedDomainsOf(
	context: Pick<IExecuteFunctions, 'getNode'>,
	credential: ICredentialDataDecryptedObject,
	url: string,
): string | undefined {
	// n8n-workflow before the options (n8n 1.x) does not have the function: a peer dependency, n8n's own.
	if (typeof getCredentialAllowedDomains !== 'function') return undefined;
	if (credential.allowedHttpRequestDomains !== 'domains') return undefined;
	let read = lists.get(credential);
	if (read === undefined) {
		read = {
			domains: getCredentialAllowedDomains({
				node: context.getNode(),
				credentialData: credential,
				surface: 'Chat Completions',
				credentialOwnedSurface: true,
				nodeEndpointUrl: url,
			}),
		};
		lists.set(credential, read);
	}
	return read.domains;
}

/** A redirect hop outside the allowed domains is refused, in n8n's words, before it is sent. */
export function assertHopAllowed(url: string, allowedDomains: string): void {
	let refusal: unknown;
	try {
		assertUrlAllowed({ url, allowedDomains });
	} catch (error) {
		refusal = error;
	}
	if (refusal !== undefined) throw new RefusedByN8n((refusal as Error).message, '');
}
