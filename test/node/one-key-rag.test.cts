/**
 * A RAG workflow's two sub-nodes on one key in one execution: the Chat Completions Embeddings node and the
 * Chat Completions Chat Model under one root node (as a vector store tool under an AI Agent uses both),
 * against a key limited in flight and per second. Every run on a key shares what the key learned (its
 * in-flight cap, its pause, its pacing), whichever node started it: together the two nodes meet no more
 * 429s than one node alone sending as many requests.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { IConnections, IDataObject, IExecuteFunctions, INode, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import '../../nodes/LmChatCompletions/model/supply';
import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';
import { LmChatCompletions } from '../../nodes/LmChatCompletions/LmChatCompletions.node';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Embeddings } from './embeddings-probe.cts';
import { MODEL_TYPE, warmUp } from './chat-model-probe.cts';
import { keys, startService } from '../support/service.cts';
import type { LocalService } from '../support/service.cts';

const EMBEDDINGS_TYPE = 'n8n-nodes-chat-completions.embeddingsChatCompletions';
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

/** What the root node does with the model and the embeddings connected to it. */
type Script = (model: BaseChatModel, embeddings: Embeddings) => Promise<IDataObject>;

function rootNode(script: Script): INodeType {
	return {
		description: {
			displayName: 'Root',
			name: 'root',
			group: ['transform'],
			version: 1,
			description: 'Calls the connected model and embeddings',
			defaults: { name: 'Root' },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: NodeConnectionTypes.AiLanguageModel, displayName: 'Model', maxConnections: 1 },
				{ type: NodeConnectionTypes.AiEmbedding, displayName: 'Embedding', maxConnections: 1 },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const model = await this.getInputConnectionData(NodeConnectionTypes.AiLanguageModel, 0);
			const embeddings = await this.getInputConnectionData(NodeConnectionTypes.AiEmbedding, 0);
			return [
				[
					{
						json: await script(model as BaseChatModel, embeddings as Embeddings),
						pairedItem: { item: 0 },
					},
				],
			];
		},
	};
}

/** Runs Root with the Chat Model and the Embeddings node, both on the `rag` key at `baseUrl`. */
async function runRoot(baseUrl: string, script: Script) {
	const engine = createEngine({
		nodeTypes: {
			[MODEL_TYPE]: new LmChatCompletions(),
			[EMBEDDINGS_TYPE]: new EmbeddingsChatCompletions(),
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
	];
	const to = (type: 'ai_languageModel' | 'ai_embedding') => ({
		[type]: [[{ node: 'Root', type, index: 0 }]],
	});
	const connections: IConnections = {
		'Chat Model': to(NodeConnectionTypes.AiLanguageModel),
		Embeddings: to(NodeConnectionTypes.AiEmbedding),
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

test('the Chat Model and the Embeddings node on one key share what it taught either: no 429 after the cap is known, every answer', async () => {
	await service.clearRequests();
	let learned = 0;
	const { error, runData } = await runRoot(service.baseUrl, async (model, embeddings) => {
		// The Chat Model meets the key's cap on requests in flight (the first burst is refused beyond it).
		await askAll(model, 2 * IN_FLIGHT);
		learned = (await service.traffic()).rag.rejected;
		await service.clearRequests();
		// Then both nodes at once: the Embeddings node starts within the cap the Chat Model learned.
		const [answers, vectors] = await Promise.all([
			askAll(model, REQUESTS),
			embeddings.embedDocuments(texts(REQUESTS * BATCH)),
		]);
		return { answers, vectors: vectors.length };
	});
	expect(error).toBeUndefined();
	expect(runData.Root?.[0]?.data?.main[0]?.[0]?.json).toEqual({
		answers: questions(REQUESTS),
		vectors: REQUESTS * BATCH,
	});
	const { rag } = await service.traffic();
	console.log(
		`${IN_FLIGHT} in flight allowed: ${learned} 429s taught the key its cap; then ${REQUESTS} chat requests and ${REQUESTS} embeddings batches at once met ${rag.rejected}`,
	);
	expect(learned).toBeGreaterThan(0);
	expect(rag.admitted).toBe(2 * REQUESTS);
	// A run of its own would start the Embeddings node's batches all at once, and meet the cap again.
	expect(rag.rejected).toBe(0);
}, 120_000);
