/** n8n's own nodes (n8n-nodes-base) that the example workflows use, for the engine harness. */
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import { baseNodeType } from '../../dev/n8n-core/base-types.cts';

export function baseNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	return {
		'n8n-nodes-base.manualTrigger': baseNodeType('ManualTrigger', 'ManualTrigger'),
		'n8n-nodes-base.set': baseNodeType('Set', 'Set'),
		'n8n-nodes-base.switch': baseNodeType('Switch', 'Switch'),
		'n8n-nodes-base.merge': baseNodeType('Merge', 'Merge'),
		'n8n-nodes-base.httpRequest': baseNodeType('HttpRequest', 'HttpRequest'),
		'n8n-nodes-base.webhook': baseNodeType('Webhook', 'Webhook'),
	};
}
