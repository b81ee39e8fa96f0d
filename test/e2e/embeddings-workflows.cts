/**
 * Workflows for the Embeddings node's real-n8n tests, behind Webhook triggers that answer with every item
 * of the last node: documents (the POSTed `documents`, or `count` made-up ones) through n8n's Default Data
 * Loader and Recursive Character Text Splitter into a Simple Vector Store with the Chat Completions
 * Embeddings, and a search of that store with the same sub-node.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { aiLink, webhookNode } from '../../dev/n8n/workflows.cts';

export const EMBEDDINGS_TYPE = 'n8n-nodes-chat-completions.embeddingsChatCompletions';
const STORE_TYPE = '@n8n/n8n-nodes-langchain.vectorStoreInMemory';

/** A sub-node of this package (Embeddings, Reranker): its credential, Model (by ID) and Options. */
export interface SubNodeSetup {
	credential: { id: string; name: string };
	model: string;
	options?: Record<string, unknown>;
}

/** The package's sub-node of `type`, named `name`. */
export function packageSubNode(
	type: string,
	name: string,
	{ credential, model, options }: SubNodeSetup,
	position: [number, number],
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion: 1,
		position,
		parameters: { model: { __rl: true, mode: 'id', value: model }, options: options ?? {} },
		credentials: { chatCompletionsApi: credential },
	};
}

/** The Embeddings node, named `Embeddings`. */
export const embeddingsNode = (setup: SubNodeSetup): WorkflowNode =>
	packageSubNode(EMBEDDINGS_TYPE, 'Embeddings', setup, [200, 240]);

/** A Simple Vector Store named `name` on the memory key `key`, its mode and fields in `parameters`. */
export function storeNode(
	name: string,
	key: string,
	parameters: Record<string, unknown>,
	position: [number, number] = [0, 0],
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: STORE_TYPE,
		typeVersion: 1.3,
		position,
		parameters: { ...parameters, memoryKey: { __rl: true, mode: 'id', value: key } },
	};
}

/**
 * Webhook -> the documents as items (`documents: [{ text }]`, or with `count` made-up chunks
 * `Chunk N ...`) -> Simple Vector Store (insert into store `key`, cleared first unless `clearStore` is
 * false: n8n clears it again before each of its batches of 200) <- Default Data Loader (the
 * item's `text`) <- Recursive Character Text Splitter, and the Embeddings.
 */
export function insertWorkflow(
	path: string,
	key: string,
	embeddings: SubNodeSetup,
	{ clearStore = true } = {},
): WorkflowToImport {
	const documents: WorkflowNode = {
		id: randomUUID(),
		name: 'Documents',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [-80, 0],
		parameters: {
			jsCode: [
				'const { documents, count } = $input.first().json.body;',
				'if (documents) return documents.map((document) => ({ json: document }));',
				'return Array.from({ length: count }, (_, n) => ({ json: { text: `Chunk ${n} of the archive, word${n} and term${n * 7}` } }));',
			].join('\n'),
		},
	};
	const store = storeNode('Insert', key, { mode: 'insert', clearStore }, [140, 0]);
	const loader: WorkflowNode = {
		id: randomUUID(),
		name: 'Default Data Loader',
		type: '@n8n/n8n-nodes-langchain.documentDefaultDataLoader',
		typeVersion: 1.1,
		position: [340, 240],
		parameters: {
			jsonMode: 'expressionData',
			jsonData: '={{ $json.text }}',
			textSplittingMode: 'custom',
			options: {},
		},
	};
	const splitter: WorkflowNode = {
		id: randomUUID(),
		name: 'Splitter',
		type: '@n8n/n8n-nodes-langchain.textSplitterRecursiveCharacterTextSplitter',
		typeVersion: 1,
		position: [420, 440],
		parameters: { chunkSize: 200, chunkOverlap: 0, options: {} },
	};
	return {
		id: `e2e-${path}`,
		name: `Embeddings: ${path}`,
		nodes: [
			webhookNode(path, 'lastNode', { allEntries: true }),
			documents,
			store,
			loader,
			splitter,
			embeddingsNode(embeddings),
		],
		connections: {
			Webhook: { main: aiLink('Documents', 'main') },
			Documents: { main: aiLink('Insert', 'main') },
			'Default Data Loader': { ai_document: aiLink('Insert', 'ai_document') },
			Splitter: { ai_textSplitter: aiLink('Default Data Loader', 'ai_textSplitter') },
			Embeddings: { ai_embedding: aiLink('Insert', 'ai_embedding') },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook -> Simple Vector Store (load: the `topK` documents nearest the POSTed `question`) <- Embeddings. */
export function searchWorkflow(
	path: string,
	key: string,
	embeddings: SubNodeSetup,
): WorkflowToImport {
	const store = storeNode('Search', key, {
		mode: 'load',
		prompt: '={{ $json.body.question }}',
		topK: '={{ $json.body.topK ?? 1 }}',
	});
	return {
		id: `e2e-${path}`,
		name: `Embeddings: ${path}`,
		nodes: [webhookNode(path, 'lastNode', { allEntries: true }), store, embeddingsNode(embeddings)],
		connections: {
			Webhook: { main: aiLink('Search', 'main') },
			Embeddings: { ai_embedding: aiLink('Search', 'ai_embedding') },
		},
		settings: { executionOrder: 'v1' },
	};
}
