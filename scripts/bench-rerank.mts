/**
 * `npm run bench -- rerank`: 100 searches, one after another as a vector store's Get Many makes them, each
 * reranking 50 documents, with the Chat Completions Reranker in n8n's engine (supplied anew for each search,
 * as n8n does, and each search logged) beside a bare `fetch` of the same /rerank requests, taking turns; n8n's
 * Reranker Cohere cannot be pointed at another service (its credential has no Base URL). Prints the time of a
 * search for both, with the service answering at once and in 50 ms (a hosted rerank model's time); target:
 * the node adds at most 10% to a search's time.
 */
import { NodeConnectionTypes } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { median } from './bench/stats.mts';
import { ChatCompletionsApi } from '../credentials/ChatCompletionsApi.credentials.ts';
import { createEngine, disposeEngine } from '../dev/n8n-core/harness.cts';
import { probeNode } from '../dev/n8n-core/probe-node.cts';
import { keys, startService } from '../dev/service-client/local-service.cts';
import type {
	DocumentCompressor,
	StoreDocument,
} from '../nodes/RerankerChatCompletions/document-compressor.ts';
import { RerankerChatCompletions } from '../nodes/RerankerChatCompletions/RerankerChatCompletions.node.ts';

const SEARCHES = 100;
const DOCUMENTS = 50;
const ROUNDS = 5;

const documents: StoreDocument[] = Array.from({ length: DOCUMENTS }, (_, n) => ({
	pageContent: `Paragraph ${n} of the archive: topic ${n % 7}, term${n}, and the words of chunk ${n}.`,
	metadata: { chunk: n },
}));
const queries = Array.from({ length: SEARCHES }, (_, n) => `topic ${n % 7} term${n % DOCUMENTS}`);

/** Each search reranked by the node, asked of n8n's engine for each search as a vector store asks. */
const probe = probeNode<DocumentCompressor>(NodeConnectionTypes.AiReranker, async (supplied) => {
	let kept = 0;
	for (const query of queries)
		kept += (await (await supplied()).compressDocuments(documents, query)).length;
	return { kept };
});

/** The same searches with `fetch` alone: the body sent, the JSON read, the documents put in order. */
async function bareFetch(baseUrl: string): Promise<number> {
	let kept = 0;
	for (const query of queries) {
		const response = await fetch(`${baseUrl}/rerank`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${keys.rag}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({
				model: 'rerank-1',
				query,
				documents: documents.map((document) => document.pageContent),
				top_n: DOCUMENTS,
			}),
		});
		const { results } = (await response.json()) as {
			results: Array<{ index: number; relevance_score: number }>;
		};
		kept += results.map(({ index, relevance_score }) => ({
			...documents[index],
			metadata: { ...documents[index].metadata, relevanceScore: relevance_score },
		})).length;
	}
	return kept;
}

async function benchAt(latencyMs: number): Promise<void> {
	const service = await startService({ args: ['--latency-ms', String(latencyMs)] });
	try {
		const engine = createEngine({
			nodeTypes: {
				'n8n-nodes-chat-completions.rerankerChatCompletions': new RerankerChatCompletions(),
				'bench.probe': probe,
			},
			credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
			credentials: { chatCompletionsApi: { apiKey: keys.rag, baseUrl: service.baseUrl } },
		});
		const nodes: INode[] = [
			{
				id: 'p',
				name: 'Store',
				type: 'bench.probe',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'r',
				name: 'Reranker',
				type: 'n8n-nodes-chat-completions.rerankerChatCompletions',
				typeVersion: 1,
				position: [0, 200],
				parameters: { model: { __rl: true, mode: 'id', value: 'rerank-1' }, options: {} },
				credentials: { chatCompletionsApi: { id: 'c', name: 'c' } },
			},
		];
		const connections = {
			Reranker: {
				ai_reranker: [[{ node: 'Store', type: NodeConnectionTypes.AiReranker, index: 0 }]],
			},
		};
		const ours = async () => {
			const { runData, error } = await engine.runWorkflow({
				workflow: { nodes, connections },
				startNode: 'Store',
			});
			const kept = runData.Store?.[0]?.data?.main[0]?.[0]?.json.kept;
			if (error !== undefined || kept !== SEARCHES * DOCUMENTS) {
				throw new Error(`Chat Completions Reranker: ${String(kept)} documents; ${error?.message}`);
			}
		};
		const fetched = async () => {
			if ((await bareFetch(service.baseUrl)) !== SEARCHES * DOCUMENTS)
				throw new Error('bare fetch');
		};
		const contenders = { ours, fetched };
		const times: Record<keyof typeof contenders, number[]> = { ours: [], fetched: [] };
		const names = Object.keys(contenders) as Array<keyof typeof contenders>;
		// One warm-up each, then rounds taking turns.
		for (let round = -1; round < ROUNDS; round++) {
			for (const name of round % 2 === 0 ? names : [...names].reverse()) {
				const started = performance.now();
				await contenders[name]();
				if (round >= 0) times[name].push((performance.now() - started) / SEARCHES);
			}
		}
		const [node, bare] = [median(times.ours), median(times.fetched)];
		console.log(`  service answering in ${latencyMs} ms:`);
		console.log(`    Chat Completions Reranker  ${node.toFixed(2)} ms a search`);
		console.log(`    bare fetch of /rerank      ${bare.toFixed(2)} ms a search`);
		console.log(
			`    the node adds ${(node - bare).toFixed(2)} ms, ${((node / bare - 1) * 100).toFixed(1)}% of a search (target <= 10%)`,
		);
	} finally {
		await service.stop();
	}
}

try {
	console.log(
		`\nRerank: ${SEARCHES} searches one after another, ${DOCUMENTS} documents each, all kept; median of ${ROUNDS} rounds taking turns`,
	);
	await benchAt(0);
	await benchAt(50);
} finally {
	await disposeEngine();
}
