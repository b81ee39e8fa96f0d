/**
 * `npm run bench -- embeddings`: inserting 1,000 chunks into n8n's Simple Vector Store in n8n's engine, through
 * n8n's Default Data Loader and Recursive Character Text Splitter, with the Chat Completions Embeddings node
 * and with n8n's Embeddings OpenAI node (its openAiApi credential's Base URL on the same local service, same
 * key), both at their defaults, taking turns; prints the median times side by side (target: ours <= 0.5x).
 * n8n's AI nodes come from n8n's own install (`N8N_NODE_MODULES`, set by scripts/bench.sh), as n8n loads them.
 * The service answers embeddings in 50 ms plus 2 ms per input of the request (the model's time grows with
 * the batch, as a hosted model's does); n8n's store hands over 200 chunks at a time.
 */
import type { IConnections, INode, NodeConnectionType } from 'n8n-workflow';

import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node.ts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { keys, startService } from '../../dev/service-client/local-service.cts';
import { LANGCHAIN, n8nType } from './n8n-install.mts';
import { sideBySideCredentials } from './openai-credentials.mts';
import { median } from './stats.mts';

const CHUNKS = 1000;
const ROUNDS = 5;
const LATENCY_MS = 50;
const MS_PER_INPUT = 2;

const CONTENDERS = {
	ours: {
		label: 'Chat Completions Embeddings',
		type: 'n8n-nodes-chat-completions.embeddingsChatCompletions',
		credential: 'chatCompletionsApi',
	},
	openAi: {
		label: 'Embeddings OpenAI (n8n)',
		type: '@n8n/n8n-nodes-langchain.embeddingsOpenAi',
		credential: 'openAiApi',
	},
} as const;
type Name = keyof typeof CONTENDERS;

function workflow(name: Name): { nodes: INode[]; connections: IConnections } {
	const { type, credential } = CONTENDERS[name];
	const node = (id: string, nodeType: string, typeVersion: number, parameters: object): INode => ({
		id,
		name: id,
		type: nodeType,
		typeVersion,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	});
	const model = name === 'ours' ? { __rl: true, mode: 'id', value: 'embed-1' } : 'embed-1';
	const embeddings = {
		...node('Embeddings', type, name === 'ours' ? 1 : 1.2, { model, options: {} }),
		credentials: { [credential]: { id: credential, name: credential } },
	};
	const link = (to: string, connection: NodeConnectionType) => ({
		[connection]: [[{ node: to, type: connection, index: 0 }]],
	});
	return {
		nodes: [
			node('Store', '@n8n/n8n-nodes-langchain.vectorStoreInMemory', 1.3, {
				mode: 'insert',
				memoryKey: { __rl: true, mode: 'id', value: `bench-${name}` },
				clearStore: false,
			}),
			node('Loader', '@n8n/n8n-nodes-langchain.documentDefaultDataLoader', 1.1, {
				jsonMode: 'expressionData',
				jsonData: '={{ $json.text }}',
				textSplittingMode: 'custom',
				options: {},
			}),
			node('Splitter', '@n8n/n8n-nodes-langchain.textSplitterRecursiveCharacterTextSplitter', 1, {
				chunkSize: 1000,
				chunkOverlap: 0,
				options: {},
			}),
			embeddings,
		],
		connections: {
			Loader: link('Store', 'ai_document'),
			Splitter: link('Loader', 'ai_textSplitter'),
			Embeddings: link('Store', 'ai_embedding'),
		},
	};
}

const chunks = Array.from({ length: CHUNKS }, (_, n) => ({
	json: { text: `Chunk ${n}: a paragraph of the archive about topic ${n % 37}, with term${n}.` },
}));

export async function benchEmbeddings(): Promise<void> {
	const service = await startService({
		args: ['--latency-ms', String(LATENCY_MS), '--embedding-ms-per-input', String(MS_PER_INPUT)],
	});
	try {
		const engine = createEngine({
			nodeTypes: {
				[CONTENDERS.ours.type]: new EmbeddingsChatCompletions(),
				[CONTENDERS.openAi.type]: n8nType(
					`${LANGCHAIN}/embeddings/EmbeddingsOpenAI/EmbeddingsOpenAi.node.js`,
					'EmbeddingsOpenAi',
				),
				'@n8n/n8n-nodes-langchain.vectorStoreInMemory': n8nType(
					`${LANGCHAIN}/vector_store/VectorStoreInMemory/VectorStoreInMemory.node.js`,
					'VectorStoreInMemory',
				),
				'@n8n/n8n-nodes-langchain.documentDefaultDataLoader': n8nType(
					`${LANGCHAIN}/document_loaders/DocumentDefaultDataLoader/DocumentDefaultDataLoader.node.js`,
					'DocumentDefaultDataLoader',
				),
				'@n8n/n8n-nodes-langchain.textSplitterRecursiveCharacterTextSplitter': n8nType(
					`${LANGCHAIN}/text_splitters/TextSplitterRecursiveCharacterTextSplitter/TextSplitterRecursiveCharacterTextSplitter.node.js`,
					'TextSplitterRecursiveCharacterTextSplitter',
				),
			},
			...sideBySideCredentials(keys.rag, service.baseUrl),
		});
		const times: Record<Name, number[]> = { ours: [], openAi: [] };
		const requests: Record<Name, number> = { ours: 0, openAi: 0 };
		const names = Object.keys(CONTENDERS) as Name[];
		// One warm-up each, then rounds taking turns.
		for (let round = -1; round < ROUNDS; round++) {
			for (const name of round % 2 === 0 ? names : [...names].reverse()) {
				await service.clearRequests();
				const started = performance.now();
				const { runData, error } = await engine.runWorkflow({
					workflow: workflow(name),
					startNode: 'Store',
					items: chunks,
				});
				const elapsed = performance.now() - started;
				const stored = runData.Store?.[0]?.data?.main[0]?.length ?? 0;
				if (error !== undefined || stored !== CHUNKS) {
					throw new Error(`${CONTENDERS[name].label}: ${stored} chunks stored; ${error?.message}`);
				}
				if (round >= 0) times[name].push(elapsed);
				requests[name] = (await service.requests()).length;
			}
		}
		console.log(
			`\nEmbeddings: ${CHUNKS} chunks into a Simple Vector Store (its batches of 200), both nodes at their defaults, ` +
				`the service answering in ${LATENCY_MS} ms + ${MS_PER_INPUT} ms per input; median of ${ROUNDS} rounds taking turns`,
		);
		for (const name of names) {
			console.log(
				`  ${CONTENDERS[name].label.padEnd(28)} ${(median(times[name]) / 1000).toFixed(2)} s, ${requests[name]} requests`,
			);
		}
		console.log(
			`  ours / Embeddings OpenAI: ${(median(times.ours) / median(times.openAi)).toFixed(2)}x (target <= 0.5x)`,
		);
	} finally {
		await service.stop();
	}
}
