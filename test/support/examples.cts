/** The example workflows of examples/, pointed at a running local service, in the engine harness. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ICredentialType, IConnections, INode, INodeType } from 'n8n-workflow';

import { baseNodeTypes } from './base-nodes.cts';
import { NODE_TYPE } from './chat-node.cts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Engine } from '../../dev/n8n-core/harness.cts';

export interface ExampleWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
}

const EXAMPLES_ORIGIN = 'http://127.0.0.1:8787';

/** Reads examples/<name>.workflow.json with the local service's default address replaced by `origin`. */
export function loadExample(name: string, origin: string): ExampleWorkflow {
	const text = readFileSync(
		join(__dirname, '..', '..', 'examples', `${name}.workflow.json`),
		'utf8',
	);
	return JSON.parse(text.split(EXAMPLES_ORIGIN).join(origin)) as ExampleWorkflow;
}

/** This package's node and credential: from the source in tests, from dist in `npm run try`. */
export interface PackageTypes {
	node: INodeType;
	credential: ICredentialType;
}

// n8n's own nodes take seconds to load (3.7 s at a load of 13): loaded before the tests of each file that runs
// them, so that none pays for it within its time limit (the engines made in the tests find them loaded).
beforeAll(() => void baseNodeTypes(), 60_000);

/** An engine with this package's node, the n8n nodes the examples use, and a credential for the service. */
export function exampleEngine(types: PackageTypes, apiKey: string, baseUrl: string): Engine {
	return createEngine({
		nodeTypes: { ...baseNodeTypes(), [NODE_TYPE]: types.node },
		credentialTypes: { chatCompletionsApi: types.credential },
		credentials: { chatCompletionsApi: { apiKey, baseUrl } },
	});
}

export const TRIGGER = "When clicking 'Execute workflow'";
