/**
 * The packed package in n8n 1.x (`npm run test:n8n1`; the version in global-setup.cts), which has no AI node
 * SDK: installed as n8n installs community packages, workflows imported and activated with its CLI,
 * `n8n start` driven over HTTP against the local service. Chat Completion works as on 2.x (a reply, version
 * 1.1's image fields, the error output, streaming to the Webhook, as an AI Agent tool); the Chat Model fails
 * only when the agent uses it, with the n8n version it needs.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import {
	errorOutputWorkflow,
	exampleBehindWebhook,
	streamingWorkflow,
} from '../../dev/n8n/workflows.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import {
	agentWithChatCompletionTool,
	agentWorkflow,
	openAiChatModel,
	withNode,
} from '../e2e/chat-model-workflows.cts';
import { readStreamed } from '../e2e/support/streamed-response.cts';
import { keys, useLocalService } from '../support/service.cts';

/** n8n 1.x's AI Agent is version 3 at most (2.x's tests use 3.1). */
function agentV3(workflow: WorkflowToImport): WorkflowToImport {
	const agent = (workflow.nodes as WorkflowNode[]).find((node) => node.name === 'AI Agent');
	if (agent === undefined) throw new Error(`${workflow.name} has no AI Agent`);
	return withNode(workflow, { ...agent, typeVersion: 3 });
}

/** The workflow started by a manual trigger instead of its Webhook, for `n8n execute`. */
function manuallyStarted(workflow: WorkflowToImport, id: string): WorkflowToImport {
	const nodes = workflow.nodes as WorkflowNode[];
	const { Webhook: fromWebhook, ...connections } = workflow.connections as Record<string, unknown>;
	const start: WorkflowNode = {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [-300, 0],
		parameters: {},
	};
	return {
		...workflow,
		id,
		nodes: [start, ...nodes.filter((node) => node.name !== 'Webhook')],
		connections: { Start: fromWebhook, ...connections },
	};
}

const service = useLocalService();
const openAi = { id: 'openai-local', name: 'OpenAI (local service)' };
const badKey = { id: 'bad-key', name: 'Wrong key', type: 'chatCompletionsApi' };
const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const chat = { credential, model: 'echo-1', prompt: '={{ $json.body.question }}' };
	return {
		credentials: [
			credential,
			{ ...badKey, data: { apiKey: 'sk-example-wrong-key', baseUrl: service().baseUrl } },
			{ ...openAi, type: 'openAiApi', data: { apiKey: keys.default, url: service().baseUrl } },
		],
		workflows: [
			...['chat', 'describe-image-url'].map((name) => exampleBehindWebhook(name, service().origin)),
			errorOutputWorkflow('bad-key', { ...chat, credential: badKey }),
			streamingWorkflow('stream', {
				...chat,
				options: { stream: true, extraBody: '{"x_local": {"delay_ms": 40}}' },
			}),
			manuallyStarted(
				agentV3(agentWorkflow('chat-model', { credential, model: 'echo-1' }, { tools: false })),
				'n8n1-chat-model',
			),
			agentV3(
				withNode(
					agentWithChatCompletionTool('tool', { credential, model: 'echo-1' }),
					openAiChatModel(service().baseUrl, openAi),
				),
			),
		],
	};
});

async function answer(path: string, body?: unknown): Promise<Record<string, unknown>> {
	const response = await n8n().webhook(path, body);
	const text = await response.text();
	if (!response.ok)
		throw new Error(`POST /webhook/${path} answered ${response.status}: ${text}\n${n8n().logs()}`);
	return JSON.parse(text) as Record<string, unknown>;
}

test('n8n loads every node of the package', () => {
	expect(n8n().main.output()).not.toContain('Cannot find module');
});

test('the chat example: the reply of the echo model', async () => {
	const reply = await answer('chat', { question: 'What can n8n do with a chat model?' });
	expect(reply).toMatchObject({
		content: 'What can n8n do with a chat model?',
		finish_reason: 'stop',
		usage: { total_tokens: expect.any(Number) },
	});
});

test("an image from a URL: version 1.1's image fields are read", async () => {
	const reply = await answer('describe-image-url');
	expect(reply.content).toBe(
		'Image 1: PNG 2x3 (detail low)\n\nYou asked: What is in this picture? Answer in one sentence.',
	);
});

test('On Error "Continue (using error output)": a wrong API key on the error output', async () => {
	expect(await answer('bad-key', { question: 'hello' })).toEqual({
		error: 'The service rejected the API key (item 0)',
	});
});

test('a Webhook in "Streaming" response mode gets the text in pieces', async () => {
	const question = 'one two three four five six seven eight nine ten eleven twelve';
	const response = await n8n().webhook('stream', { question });
	expect(response.status).toBe(200);
	const reads = await readStreamed(response);
	expect(reads.flatMap((read) => read.deltas).join('')).toBe(question);
	expect(reads.filter((read) => read.deltas.length > 0).length).toBeGreaterThanOrEqual(4);
	expect(reads.some((read) => read.end)).toBe(true);
});

test("Chat Completion as an AI Agent tool (n8n's OpenAI Chat Model as the agent's model)", async () => {
	const question = 'please say this sentence back to me, word for word, without changing anything.';
	const reply = await answer('tool', { question });
	const toolRequest = (await service().requests()).find(
		(request) => (request.body as { model?: string }).model === 'echo-1',
	);
	expect(toolRequest?.body).toMatchObject({ messages: [{ role: 'user', content: question }] });
	expect(reply.output).toContain(JSON.stringify([{ content: question }]));
});

test('the Chat Model fails when the agent uses it: the n8n version it needs, and the node that works', async () => {
	// n8n fails the whole execution on a sub-node's error (the agent's On Error does not apply): run headless
	// to read it.
	const { error } = await n8n().execute('n8n1-chat-model');
	expect(error?.message).toMatch(
		/^The Chat Completions Chat Model needs n8n 2\.16\.0 or later: .*the Chat Completion node of the same package works/,
	);
	expect(await service().requests()).toEqual([]);
});
