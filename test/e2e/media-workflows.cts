/**
 * Workflows for the Media node's real-n8n tests: Chat Completions Media nodes chained behind a Webhook trigger,
 * binary data fed to them as users have it (a file an HTTP Request node downloaded, or what the node before
 * made).
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import { webhookNode } from '../../dev/n8n/workflows.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';

const MEDIA_TYPE = 'n8n-nodes-chat-completions.mediaChatCompletions';

/** A credential as a node names it. */
export interface CredentialRef {
	id: string;
	name: string;
}

/** A Chat Completions Media node named `name` on `credential`, with `parameters` (Resource, Operation, its fields). */
export function mediaNode(
	name: string,
	x: number,
	credential: CredentialRef,
	parameters: Record<string, unknown>,
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: MEDIA_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials: { chatCompletionsApi: { id: credential.id, name: credential.name } },
	};
}

/** A Model field set "By ID". */
export const model = (value: string) => ({ __rl: true, mode: 'id', value });

/** An HTTP Request node downloading the local service's recording (at `origin`) as binary data `data`. */
export function download(x: number, origin: string): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Download',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [x, 0],
		parameters: {
			url: `${origin}/__assets/question.wav`,
			options: { response: { response: { responseFormat: 'file' } } },
		},
	};
}

/** Each object of the POSTed `items` as an item of its own (Split Out), e.g. `{prompt, extra}`. */
const splitOut: WorkflowNode = {
	id: randomUUID(),
	name: 'Items',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	position: [-220, 0],
	parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
};

/**
 * Webhook (answering with every item of the last node) -> `nodes`, one after the other; with `splitBody`, the
 * POSTed `items` become the items first.
 */
export function chain(
	path: string,
	nodes: WorkflowNode[],
	{ splitBody = false } = {},
): WorkflowToImport {
	const webhook = webhookNode(path, 'lastNode', { allEntries: true });
	const all = [webhook, ...(splitBody ? [splitOut] : []), ...nodes];
	const connections = Object.fromEntries(
		all
			.slice(0, -1)
			.map((node, at) => [
				node.name,
				{ main: [[{ node: all[at + 1].name, type: 'main' as const, index: 0 }]] },
			]),
	);
	return {
		id: `e2e-${path}`,
		name: `Media: ${path}`,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
	};
}
