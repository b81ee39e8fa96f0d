/**
 * Workflows for the real-n8n tests: each example behind a Webhook trigger (its manual trigger replaced),
 * and small Webhook workflows around one Chat Completion node (error output, streaming).
 */
import { randomUUID } from 'node:crypto';

import { readExamples } from './examples.cts';
import type { WorkflowToImport } from './import.cts';

export const CHAT_NODE_TYPE = 'n8n-nodes-chat-completions.chatCompletion';

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	onError?: string;
	credentials?: Record<string, { id: string; name: string }>;
}

type Connections = Record<
	string,
	{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
>;

const to = (...nodes: string[]) => nodes.map((node) => [{ node, type: 'main' as const, index: 0 }]);

/** A Webhook trigger on POST `path`; `allEntries`: answers with every item of the last node, not the first. */
export function webhookNode(
	path: string,
	responseMode: 'lastNode' | 'streaming' | 'onReceived',
	{ allEntries = false } = {},
): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [-440, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode,
			...(allEntries ? { responseData: 'allEntries' } : {}),
			options: {},
		},
	};
}

/** A connection of an AI sub-node (`type`: ai_languageModel, ai_embedding, ...) to `node`. */
export const aiLink = (node: string, type: string) => [[{ node, type, index: 0 }]];

/**
 * examples/<name>.workflow.json with its manual trigger replaced by Webhook -> Request Body (the POSTed
 * JSON as the item, e.g. `{ "question": "..." }` for the chat example). Answers with the last node's item.
 */
export function exampleBehindWebhook(name: string, origin: string): WorkflowToImport {
	const example = readExamples(origin).find((candidate) => candidate.name === name);
	if (example === undefined) throw new Error(`examples/${name}.workflow.json does not exist`);
	const nodes = example.workflow.nodes as WorkflowNode[];
	const connections = example.workflow.connections as Connections;
	const trigger = nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (trigger === undefined)
		throw new Error(`examples/${name}.workflow.json has no manual trigger`);
	const requestBody: WorkflowNode = {
		id: randomUUID(),
		name: 'Request Body',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [-220, 0],
		parameters: { mode: 'raw', jsonOutput: '={{ $json.body }}', options: {} },
	};
	const { [trigger.name]: fromTrigger, ...otherConnections } = connections;
	return {
		...example.workflow,
		id: `e2e-${name}`,
		nodes: [
			webhookNode(name, 'lastNode'),
			requestBody,
			...nodes.filter((node) => node !== trigger),
		],
		connections: {
			Webhook: { main: to(requestBody.name) },
			[requestBody.name]: fromTrigger,
			...otherConnections,
		},
	};
}

export interface ChatNodeOptions {
	credential: { id: string; name: string };
	model: string;
	prompt: string;
	options?: Record<string, unknown>;
}

export function chatNode({ credential, model, prompt, options }: ChatNodeOptions): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Chat Completion',
		type: CHAT_NODE_TYPE,
		typeVersion: 1,
		position: [-220, 0],
		parameters: {
			model: { __rl: true, mode: 'id', value: model },
			promptType: 'simple',
			prompt,
			options: options ?? {},
		},
		credentials: { chatCompletionsApi: credential },
	};
}

const noOp = (name: string, y: number): WorkflowNode => ({
	id: randomUUID(),
	name,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [0, y],
	parameters: {},
});

/** Webhook -> Chat Completion with On Error "Continue (using error output)" -> Reply / Error Output (no-ops). */
export function errorOutputWorkflow(path: string, chat: ChatNodeOptions): WorkflowToImport {
	return {
		id: `e2e-${path}`,
		name: `Error output: ${path}`,
		nodes: [
			webhookNode(path, 'lastNode'),
			{ ...chatNode(chat), onError: 'continueErrorOutput' },
			noOp('Reply', -100),
			noOp('Error Output', 100),
		],
		connections: {
			Webhook: { main: to('Chat Completion') },
			'Chat Completion': { main: to('Reply', 'Error Output') },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Webhook in "Streaming" response mode -> Chat Completion: the node's text deltas are the HTTP response. */
export function streamingWorkflow(path: string, chat: ChatNodeOptions): WorkflowToImport {
	return {
		id: `e2e-${path}`,
		name: `Streaming: ${path}`,
		nodes: [webhookNode(path, 'streaming'), chatNode(chat)],
		connections: { Webhook: { main: to('Chat Completion') } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook -> PDF (Convert to File: the POSTed `pdf`, base64, becomes the binary property `data`, invoice.pdf)
 * -> Chat Completion with Files on, sending `data`: a PDF in binary data as users have one.
 */
export function pdfBehindWebhook(path: string, chat: ChatNodeOptions): WorkflowToImport {
	const chatCompletion = chatNode(chat);
	const pdf: WorkflowNode = {
		id: randomUUID(),
		name: 'PDF',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [-220, 0],
		parameters: {
			operation: 'toBinary',
			sourceProperty: 'body.pdf',
			binaryPropertyName: 'data',
			options: { fileName: 'invoice.pdf', mimeType: 'application/pdf' },
		},
	};
	return {
		id: `e2e-${path}`,
		name: `PDF: ${path}`,
		nodes: [
			webhookNode(path, 'lastNode'),
			pdf,
			{
				...chatCompletion,
				position: [0, 0],
				parameters: { ...chatCompletion.parameters, withFiles: true, fileBinaryProperties: 'data' },
			},
		],
		connections: { Webhook: { main: to(pdf.name) }, [pdf.name]: { main: to(chatCompletion.name) } },
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook (answers with every item of the last node) -> Questions (Split Out: each object of the POSTed
 * `questions` becomes an item, e.g. `{ "questions": [{ "question": "..." }] }`) -> `node`, which reads the
 * items' fields (`$json.question`). Many items in one execution, as a batch user runs them.
 */
export function questionsBehindWebhook(path: string, node: WorkflowNode): WorkflowToImport {
	const webhook = webhookNode(path, 'lastNode');
	const questions: WorkflowNode = {
		id: randomUUID(),
		name: 'Questions',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [-220, 0],
		parameters: { fieldToSplitOut: 'body.questions', include: 'noOtherFields', options: {} },
	};
	return {
		id: `e2e-${path}`,
		name: `Questions: ${path}`,
		nodes: [
			{ ...webhook, parameters: { ...webhook.parameters, responseData: 'allEntries' } },
			questions,
			{ ...node, position: [0, 0] },
		],
		connections: {
			Webhook: { main: to(questions.name) },
			[questions.name]: { main: to(node.name) },
		},
		settings: { executionOrder: 'v1' },
	};
}
