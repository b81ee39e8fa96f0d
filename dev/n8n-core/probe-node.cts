/**
 * A small root node ("Probe") for a sub-node of this package in n8n-core's engine: it takes what the sub-node
 * supplies from its AI input, as n8n's root nodes do (n8n-core runs the sub-node's supplyData at each ask),
 * and hands a script the ask, the number of input items and its Prompt for an item (a vector store's Get Many
 * searches by its `prompt`, resolved for each item); the script's result is its one output item.
 */
import type { IDataObject, INodeType, AINodeConnectionType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

export type ProbeScript<T> = (
	supplied: () => Promise<T>,
	items: number,
	prompt: (itemIndex: number) => unknown,
) => Promise<IDataObject>;

export function probeNode<T>(connection: AINodeConnectionType, script: ProbeScript<T>): INodeType {
	return {
		description: {
			displayName: 'Probe',
			name: 'probe',
			group: ['transform'],
			version: 1,
			description: 'Calls the connected sub-node',
			defaults: { name: 'Probe' },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: connection, displayName: 'Sub-node', required: true, maxConnections: 1 },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [{ displayName: 'Prompt', name: 'prompt', type: 'string', default: '' }],
		},
		async execute() {
			const supplied = async () => (await this.getInputConnectionData(connection, 0)) as T;
			const json = await script(supplied, this.getInputData().length, (itemIndex) =>
				this.getNodeParameter('prompt', itemIndex),
			);
			return [[{ json, pairedItem: { item: 0 } }]];
		},
	};
}
