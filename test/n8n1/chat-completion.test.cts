/**
 * What differs in n8n 1.x (`npm run test:n8n1`; the version in global-setup.cts), which has no AI node SDK:
 * the package loads, Chat Completion runs as an AI Agent tool (the agent's model is n8n's OpenAI Chat Model,
 * as ours cannot run there), and the Chat Model fails only when the agent uses it, with the n8n version it
 * needs. The same project runs test/e2e/workflows.test.cts (examples, error output, streaming) on 1.x too.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import {
	agentWithChatCompletionTool,
	agentWorkflow,
	openAiChatModel,
	withNode,
} from '../e2e/chat-model-workflows.cts';
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
const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	return {
		credentials: [
			credential,
			{ ...openAi, type: 'openAiApi', data: { apiKey: keys.default, url: service().baseUrl } },
		],
		workflows: [
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

test('n8n loads every node of the package', () => {
	expect(n8n().main.output()).not.toContain('Cannot find module');
});

test("Chat Completion as an AI Agent tool (n8n's OpenAI Chat Model as the agent's model)", async () => {
	const question = 'please say this sentence back to me, word for word, without changing anything.';
	const reply = await n8n().answer('tool', { question });
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
