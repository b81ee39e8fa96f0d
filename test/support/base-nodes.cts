/** n8n's own nodes (n8n-nodes-base) that the example workflows use, for the engine harness. */
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

function load(folder: string, className: string): INodeType | IVersionedNodeType {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(`n8n-nodes-base/dist/nodes/${folder}/${className}.node.js`) as Record<string, new () => INodeType>;
	return new module[className]();
}

export function baseNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	return {
		'n8n-nodes-base.manualTrigger': load('ManualTrigger', 'ManualTrigger'),
		'n8n-nodes-base.set': load('Set', 'Set'),
		'n8n-nodes-base.switch': load('Switch', 'Switch'),
		'n8n-nodes-base.merge': load('Merge', 'Merge'),
		'n8n-nodes-base.httpRequest': load('HttpRequest', 'HttpRequest'),
		'n8n-nodes-base.webhook': load('Webhook', 'Webhook'),
	};
}
