/**
 * A RAG workflow's three sub-nodes on one key in one execution: the Chat Completions Embeddings node, the
 * Chat Completions Reranker and the Chat Completions Chat Model under one root node (as a vector store tool
 * with Rerank Results under an AI Agent uses them), against a key limited in flight and per second. Every run
 * on a key shares what the key learned (its in-flight cap, its pause, its pacing), whichever node started
 * it: together the nodes meet no more 429s than one node alone sending as many requests.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { IConnections, IDataObject, IExecuteFunctions, INode, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import '../../nodes/LmChatCompletions/model/supply';
import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';
import { LmChatCompletions } from '../../nodes/LmChatCompletions/LmChatCompletions.node';
import { RerankerChatCompletions } from '../../nodes/RerankerChatCompletions/RerankerChatCompletions.node';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Embeddings } from './embeddings-probe.cts';
import type { Reranker } from './reranker-probe.cts';
import { MODEL_TYPE, warmUp } from './chat-model-probe.cts';
import { keys, startService } from '../support/service.cts';
import type { LocalService } from '../support/service.cts';

const EMBEDDINGS_TYPE = 'n8n-nodes-chat-completions.embeddingsChatCompletions';
const RERANKER_TYPE = 'n8n-nodes-chat-completions.rerankerChatCompletions';
const IN_FLIGHT = 4;
/** The window is wide: only the cap on requests in flight is met. */
const PER_SECOND = 1000;
/** Requests of each kind in the shared run; the run of one node alone sends twice as many of its kind. */
const REQUESTS = 24;
const BATCH = 5;
let service: LocalService;

beforeAll(async () => {
	service = await startService({
		args: ['--rate-limit', `rag=${PER_SECOND}/s,${IN_FLIGHT}@new-api`, '--latency-ms', '40'],
	});
	await warmUp(keys.rag, service.baseUrl);
}, 120_000);
afterAll(async () => await service.stop());

/** What the root node does with the model, the embeddings and the reranker connected to it. */
type Script = (
	model: BaseChatModel,
	embeddings: Embeddings,
	reranker: Reranker,
) => Promise<IDataObject>;

function rootNode(script: Script): INodeType {
	return {
		description: {
			displayName: 'Root',
			name: 'root',
			group: ['transform'],
			version: 1,
			description: 'Calls the connected model, embeddings and reranker',
			defaults: { name: 'Root' },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: NodeConnectionTypes.AiLanguageModel, displayName: 'Model', maxConnections: 1 },
				{ type: NodeConnectionTypes.AiEmbedding, displayName: 'Embedding', maxConnections: 1 },
				{ type: NodeConnectionTypes.AiReranker, displayName: 'Reranker', maxConnections: 1 },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const model = await this.getInputConnectionData(NodeConnectionTypes.AiLanguageModel, 0);
			const embeddings = await this.getInputConnectionData(NodeConnectionTypes.AiEmbedding, 0);
			const reranker = await this.getInputConnectionData(NodeConnectionTypes.AiReranker, 0);
			return [
				[
					{
						json: await script(
							model as BaseChatModel,
							embeddings as Embeddings,
							reranker as Reranker,
						),
						pairedItem: { item: 0 },
					},
				],
			];
		},
	};
}

/** Runs Root with the Chat Model, the Embeddings node and the Reranker, all on the `rag` key at `baseUrl`. */
async function runRoot(baseUrl: string, script: Script) {
	const engine = createEngine({
		nodeTypes: {
			[MODEL_TYPE]: new LmChatCompletions(),
			[EMBEDDINGS_TYPE]: new EmbeddingsChatCompletions(),
			[RERANKER_TYPE]: new RerankerChatCompletions(),
			'test.root': rootNode(script),
		},
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey: keys.rag, baseUrl } },
	});
	const nodes: INode[] = [
		{ id: 'r', name: 'Root', type: 'test.root', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'm',
			name: 'Chat Model',
			type: MODEL_TYPE,
			typeVersion: 1,
			position: [0, 200],
			parameters: { model: { __rl: true, mode: 'id', value: 'echo-1' }, options: {} },
		},
		{
			id: 'e',
			name: 'Embeddings',
			type: EMBEDDINGS_TYPE,
			typeVersion: 1,
			position: [200, 200],
			parameters: {
				model: { __rl: true, mode: 'id', value: 'embed-1' },
				options: { batchSize: BATCH },
			},
		},
		{
			id: 'k',
			name: 'Reranker',
			type: RERANKER_TYPE,
			typeVersion: 1,
			position: [400, 200],
			parameters: { model: { __rl: true, mode: 'id', value: 'rerank-1' }, options: {} },
		},
	];
	const to = (type: 'ai_languageModel' | 'ai_embedding' | 'ai_reranker') => ({
		[type]: [[{ node: 'Root', type, index: 0 }]],
	});
	const connections: IConnections = {
		'Chat Model': to(NodeConnectionTypes.AiLanguageModel),
		Embeddings: to(NodeConnectionTypes.AiEmbedding),
		Reranker: to(NodeConnectionTypes.AiReranker),
	};
	return await engine.runWorkflow({ workflow: { nodes, connections }, startNode: 'Root' });
}

const questions = (count: number) => Array.from({ length: count }, (_, n) => `Question ${n}`);
const texts = (count: number) =>
	Array.from({ length: count }, (_, n) => `Chunk ${n} of the manual`);

/** Each question's answer, asked all at once (an agent with batching, a chain over many items). */
async function askAll(model: BaseChatModel, count: number): Promise<string[]> {
	return await Promise.all(
		questions(count).map(async (question) => (await model.invoke(question)).text),
	);
}

/** A search of each question over the chunks, all at once. */
async function rerankAll(reranker: Reranker, count: number): Promise<number> {
	const documents = texts(BATCH).map((pageContent) => ({ pageContent, metadata: {} }));
	const searches = await Promise.all(
		questions(count).map(async (question) => await reranker.compressDocuments(documents, question)),
	);
	return searches.filter((ranked) => ranked.length === BATCH).length;
}

test('the Chat Model, the Embeddings node and the Reranker on one key share what it taught any: no 429 after the cap is known, every answer', async () => {
	await service.clearRequests();
	let learned = 0;
	const { error, runData } = await runRoot(service.baseUrl, async (model, embeddings, reranker) => {
		// The Chat Model meets the key's cap on requests in flight (the first burst is refused beyond it).
		await askAll(model, 2 * IN_FLIGHT);
		learned = (await service.traffic()).rag.rejected;
		await service.clearRequests();
		// Then the three at once: the Embeddings node and the Reranker start within the cap the Chat Model learned.
		const [answers, vectors, searches] = await Promise.all([
			askAll(model, REQUESTS),
			embeddings.embedDocuments(texts(REQUESTS * BATCH)),
			rerankAll(reranker, REQUESTS),
		]);
		return { answers, vectors: vectors.length, searches };
	});
	expect(error).toBeUndefined();
	expect(runData.Root?.[0]?.data?.main[0]?.[0]?.json).toEqual({
		answers: questions(REQUESTS),
		vectors: REQUESTS * BATCH,
		searches: REQUESTS,
	});
	const { rag } = await service.traffic();
	console.log(
		`${IN_FLIGHT} in flight allowed: ${learned} 429s taught the key its cap; then ${REQUESTS} chat requests, ${REQUESTS} embeddings batches and ${REQUESTS} searches at once met ${rag.rejected}`,
	);
	expect(learned).toBeGreaterThan(0);
	expect(rag.admitted).toBe(3 * REQUESTS);
	// A run of its own would start the Embeddings node's batches (or the searches) all at once, and meet the cap again.
	expect(rag.rejected).toBe(0);
}, 120_000);
