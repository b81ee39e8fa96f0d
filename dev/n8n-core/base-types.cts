/**
 * Node and credential types of n8n's own package (n8n-nodes-base, a dev dependency) for the engine, so that a
 * benchmark can run n8n's nodes beside ours: loaded from its built files, as n8n loads them.
 */
import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

/** `folder` and `className` as in n8n-nodes-base/dist/nodes/<folder>/<className>.node.js, e.g. HttpRequest. */
export function baseNodeType(folder: string, className: string): INodeType | IVersionedNodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(`n8n-nodes-base/dist/nodes/${folder}/${className}.node.js`) as Record<
		string,
		new () => INodeType | IVersionedNodeType
	>;
	return new module[className]();
}

/** `className` as in n8n-nodes-base/dist/credentials/<className>.credentials.js, e.g. HttpHeaderAuth. */
export function baseCredentialType(className: string): ICredentialType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(`n8n-nodes-base/dist/credentials/${className}.credentials.js`) as Record<
		string,
		new () => ICredentialType
	>;
	return new module[className]();
}
