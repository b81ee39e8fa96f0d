/**
 * Node and credential types of n8n's own install, loaded into n8n's engine as n8n loads them: the benchmarks
 * that set n8n's AI nodes beside ours (embeddings; the AI Agent of the rate-limit batch). `N8N_NODE_MODULES` is
 * that install's node_modules, set by scripts/bench.sh.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';

import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

/** Where n8n's AI nodes are, within its install. */
export const LANGCHAIN = '@n8n/n8n-nodes-langchain/dist/nodes';

/** A node class of n8n's own install, e.g. `@n8n/n8n-nodes-langchain/dist/nodes/embeddings/EmbeddingsOpenAI/EmbeddingsOpenAi.node.js`. */
export function n8nType<T = INodeType | IVersionedNodeType>(file: string, className: string): T {
	const nodeModules = process.env.N8N_NODE_MODULES;
	if (!nodeModules) throw new Error('N8N_NODE_MODULES is not set: run it through npm run bench');
	const load = createRequire(join(nodeModules, 'n8n', 'package.json'));
	const module = load(join(nodeModules, file)) as Record<string, new () => T>;
	return new module[className]();
}
