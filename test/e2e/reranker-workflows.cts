/**
 * Workflows for the Reranker node's real-n8n tests, behind Webhook triggers: a Simple Vector Store (filled by
 * embeddings-workflows.cts's insert) searched with Rerank Results on and the Chat Completions Reranker attached,
 * in each place n8n reranks: Get Many, Retrieve Documents as an AI Agent's tool, and as the vector store of a
 * Vector Store Retriever in the Question and Answer Chain.
 */
import { randomUUID } from 'node:crypto';

import type { ModelSetup } from '../../dev/n8n/agent.cts';
import { chatModel } from '../../dev/n8n/agent.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { aiLink, questionsBehindWebhook, webhookNode } from '../../dev/n8n/workflows.cts';
import { agentWorkflow } from './chat-model-workflows.cts';
import type { SubNodeSetup } from './embeddings-workflows.cts';
import { embeddingsNode, packageSubNode, storeNode } from './embeddings-workflows.cts';

const RERANKER_TYPE = 'n8n-nodes-chat-completions.rerankerChatCompletions';

/** The store's sub-nodes: the Embeddings and the Reranker. */
export interface RerankSetup {
	embeddings: SubNodeSetup;
	reranker: SubNodeSetup;
}

/** `workflow` with `node` added, its `type` output linked to `target`. */
function attached(
	workflow: WorkflowToImport,
	node: WorkflowNode,
	type: string,
	target: string,
): WorkflowToImport {
	return {
		...workflow,
		nodes: [...workflow.nodes, node],
		connections: {
			...(workflow.connections as Record<string, unknown>),
			[node.name]: { [type]: aiLink(target, type) },
		},
	};
}

/** A Simple Vector Store named `name` on store `key` with Rerank Results on, in the mode of `parameters`. */
function rerankingStore(
	name: string,
	key: string,
	parameters: Record<string, unknown>,
	position?: [number, number],
): WorkflowNode {
	return storeNode(name, key, { ...parameters, useReranker: true }, position);
}

/** `workflow` with the Embeddings and the Reranker attached to its store `store`. */
function withSubNodes(
	workflow: WorkflowToImport,
	store: string,
	{ embeddings, reranker }: RerankSetup,
): WorkflowToImport {
	return attached(
		attached(workflow, embeddingsNode(embeddings), 'ai_embedding', store),
		packageSubNode(RERANKER_TYPE, 'Reranker', reranker, [400, 240]),
		'ai_reranker',
		store,
	);
}

/**
 * Webhook -> Questions (each object of the POSTed `questions`, `{ question, topK }`, an item) -> Simple Vector
 * Store "Search" (Get Many: the `topK` documents of store `key` nearest `question`, reranked) <- Embeddings,
 * Reranker. Answers with every item of every search.
 */
export function rerankedSearchWorkflow(
	path: string,
	key: string,
	setup: RerankSetup,
): WorkflowToImport {
	const search = rerankingStore('Search', key, {
		mode: 'load',
		prompt: '={{ $json.question }}',
		topK: '={{ $json.topK }}',
	});
	return withSubNodes(questionsBehindWebhook(path, search), search.name, setup);
}

/** An AI node's workflow on `path` that searches store `key` (Limit `topK`), with the Chat Model `model`. */
export interface RerankedAiWorkflow {
	path: string;
	key: string;
	topK: number;
	model: ModelSetup;
	setup: RerankSetup;
}

/** One of n8n's LangChain nodes (`@n8n/n8n-nodes-langchain.<type>`). */
function langchainNode(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	position: [number, number],
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: `@n8n/n8n-nodes-langchain.${type}`,
		typeVersion,
		position,
		parameters,
	};
}

/**
 * Webhook -> AI Agent (the POSTed `question`) with the Chat Model and the Simple Vector Store "Handbook" as its
 * tool (Retrieve Documents (As Tool for AI Agent), reranked) <- Embeddings, Reranker.
 */
export function rerankedToolWorkflow(ai: RerankedAiWorkflow): WorkflowToImport {
	const handbook = rerankingStore(
		'Handbook',
		ai.key,
		{ mode: 'retrieve-as-tool', toolDescription: 'Searches the company handbook', topK: ai.topK },
		[240, 240],
	);
	const agent = agentWorkflow(ai.path, ai.model, { tools: false });
	return withSubNodes(attached(agent, handbook, 'ai_tool', 'AI Agent'), handbook.name, ai.setup);
}

/**
 * Webhook -> Question and Answer Chain (the POSTed `question`) with the Chat Model and a Vector Store
 * Retriever (Limit `topK`) <- Simple Vector Store (Retrieve Documents (As Vector Store for Chain/Tool),
 * reranked) <- Embeddings, Reranker.
 */
export function rerankedRetrieverWorkflow(ai: RerankedAiWorkflow): WorkflowToImport {
	const chain = langchainNode(
		'Question and Answer Chain',
		'chainRetrievalQa',
		1.7,
		{ promptType: 'define', text: '={{ $json.body.question }}', options: {} },
		[0, 0],
	);
	const retriever = langchainNode(
		'Vector Store Retriever',
		'retrieverVectorStore',
		1,
		{ topK: ai.topK },
		[200, 240],
	);
	const workflow: WorkflowToImport = {
		id: `e2e-${ai.path}`,
		name: `Question and Answer Chain: ${ai.path}`,
		nodes: [webhookNode(ai.path, 'lastNode'), chain],
		connections: { Webhook: { main: aiLink(chain.name, 'main') } },
		settings: { executionOrder: 'v1' },
	};
	const store = rerankingStore('Store', ai.key, { mode: 'retrieve' }, [200, 440]);
	const withModel = attached(workflow, chatModel(ai.model), 'ai_languageModel', chain.name);
	const withRetriever = attached(withModel, retriever, 'ai_retriever', chain.name);
	return withSubNodes(
		attached(withRetriever, store, 'ai_vectorStore', retriever.name),
		store.name,
		ai.setup,
	);
}
