/**
 * Reasoning models in a real n8n with the packed package: a tool loop with a model in DeepSeek's thinking
 * mode (`think-tools-1` refuses a tool-call message sent back without its reasoning, with DeepSeek's 400)
 * through the AI Agent with the Chat Model (plain and streaming) and through the Chat Completion node (the
 * tool-loop example's Tool Call ID / Tool Result fields, and Messages JSON built by an Edit Fields node);
 * the reasoning never reaches a streamed answer.
 */
import { randomUUID } from 'node:crypto';

import { localCredential } from '../../dev/n8n/examples.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { exampleBehindWebhook, streamingWorkflow } from '../../dev/n8n/workflows.cts';
import { keys, useLocalService } from '../support/service.cts';
import { agentWorkflow } from './chat-model-workflows.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();
const THINKING = { __rl: true, mode: 'id', value: 'think-tools-1' };

/** A copy of `workflow` behind its Webhook at `path`, with `change` applied to each node. */
function variant(
	workflow: WorkflowToImport,
	path: string,
	change: (node: WorkflowNode) => WorkflowNode = (node) => node,
): WorkflowToImport {
	const nodes = (workflow.nodes as WorkflowNode[]).map((node) =>
		node.type === 'n8n-nodes-base.webhook'
			? { ...node, webhookId: randomUUID(), parameters: { ...node.parameters, path } }
			: change(node),
	);
	return { ...workflow, id: `e2e-${path}`, name: `Reasoning: ${path}`, nodes };
}

/** The tool-loop example (Tool Call ID / Tool Result fields) with its Assistant on the thinking model. */
function thinkingToolLoop(origin: string): WorkflowToImport {
	return variant(exampleBehindWebhook('tool-loop', origin), 'thinking-tool-loop', (node) =>
		node.name === 'Assistant'
			? { ...node, parameters: { ...node.parameters, model: THINKING } }
			: node,
	);
}

/**
 * Webhook -> Ask (the thinking model calls `weather` once) -> its Tool Calls output -> Add Result (Edit
 * Fields: the item's `messages` with a tool message appended) -> Final (Messages JSON `{{ $json.messages }}`).
 */
function messagesJsonLoop(
	credential: { id: string; name: string },
	origin: string,
): WorkflowToImport {
	const base = exampleBehindWebhook('chat', origin);
	const webhook = (base.nodes as WorkflowNode[]).find(
		(node) => node.type === 'n8n-nodes-base.webhook',
	)!;
	const chat = (name: string, x: number, parameters: Record<string, unknown>): WorkflowNode => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-chat-completions.chatCompletion',
		typeVersion: 1,
		position: [x, 0],
		parameters: { model: THINKING, ...parameters },
		credentials: { chatCompletionsApi: credential },
	});
	const city = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
	const nodes: WorkflowNode[] = [
		webhook,
		chat('Ask', 0, {
			promptType: 'simple',
			prompt: '={{ $json.body.question }}',
			toolsMode: 'define',
			tools: {
				values: [
					{ name: 'weather', description: 'Weather in a city', parameters: JSON.stringify(city) },
				],
			},
		}),
		{
			id: randomUUID(),
			name: 'Add Result',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [240, 0],
			parameters: {
				mode: 'raw',
				jsonOutput:
					"={{ { messages: [...$json.messages, { role: 'tool', tool_call_id: $json.id, content: $json.args.city + ': sunny' }] } }}",
				options: {},
			},
		},
		chat('Final', 480, { promptType: 'json', messagesJson: '={{ $json.messages }}' }),
	];
	const to = (node: string) => [{ node, type: 'main', index: 0 }];
	return variant(
		{
			...base,
			nodes,
			connections: {
				[webhook.name]: { main: [to('Ask')] },
				Ask: { main: [[], to('Add Result')] },
				'Add Result': { main: [to('Final')] },
			},
		},
		'thinking-messages-json',
	);
}

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const thinking = { credential, model: 'think-tools-1' };
	return {
		credentials: [credential],
		workflows: [
			agentWorkflow('agent-thinking', thinking),
			agentWorkflow('agent-thinking-stream', thinking, { streaming: true }),
			thinkingToolLoop(service().origin),
			messagesJsonLoop(credential, service().origin),
			streamingWorkflow('stream-think-inline', {
				credential,
				model: 'think-inline-1',
				prompt: '={{ $json.body.question }}',
				options: { stream: true },
			}),
		],
	};
});

/** The assistant messages of each chat request the service received since the last clear. */
async function assistantMessages(): Promise<Array<Array<Record<string, unknown>>>> {
	return (await service().requests())
		.filter((request) => request.path === '/v1/chat/completions')
		.map((request) =>
			((request.body as { messages: Array<Record<string, unknown>> }).messages ?? []).filter(
				(message) => message.role === 'assistant',
			),
		);
}

const REASONED = 'Reasoning about: What is the weather in Paris and Tokyo?';

describe('a thinking tool loop completes in the AI Agent with the Chat Model', () => {
	test('the reasoning goes back on the message with both calls', async () => {
		const reply = await n8n().answer('agent-thinking', {
			question: 'What is the weather in Paris and Tokyo?',
		});
		expect(reply.output).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]; ' +
				'Weather({"city":"Tokyo"}) = [{"response":"Tokyo: sunny, 21 °C"}]',
		);
		const [first, second] = await assistantMessages();
		expect(first).toEqual([]);
		expect(second).toEqual([
			expect.objectContaining({ content: null, reasoning_content: REASONED }),
		]);
	});

	test('streaming through a Webhook: the answer streams without the reasoning', async () => {
		const response = await n8n().webhook('agent-thinking-stream', {
			question: 'What is the weather in Paris and Tokyo?',
		});
		const text = (await readStreamed(response)).flatMap((read) => read.deltas).join('');
		expect(text).toMatch(/^Based on the tools: Weather\(\{"city":"Paris"\}\)/);
		expect(text).not.toContain('Reasoning');
		const [, second] = await assistantMessages();
		expect(second).toEqual([expect.objectContaining({ reasoning_content: REASONED })]);
	});
});

describe('a thinking tool loop completes in the Chat Completion node', () => {
	test('the tool-loop example (Tool Call ID / Tool Result) with four parallel calls', async () => {
		const reply = await n8n().answer('thinking-tool-loop');
		expect(reply.answer).toMatch(
			/^Based on the tools: weather\(\{"city":"Paris"\}\) = .*time\(\{"city":"Tokyo"\}\)/,
		);
		const [first, second] = await assistantMessages();
		expect(first).toEqual([]);
		expect(second).toEqual([
			expect.objectContaining({
				reasoning_content: 'Reasoning about: What is the weather and the time in Paris and Tokyo?',
			}),
		]);
	});

	test("Messages JSON: the Tool Calls item's messages with the result appended by Edit Fields", async () => {
		const reply = await n8n().answer('thinking-messages-json', {
			question: 'What is the weather in Paris?',
		});
		expect(reply).toMatchObject({
			content: 'Based on the tools: weather({"city":"Paris"}) = Paris: sunny',
			reasoning: 'Reasoning about: the tool results',
		});
		const [, second] = await assistantMessages();
		expect(second).toEqual([
			expect.objectContaining({
				reasoning_content: 'Reasoning about: What is the weather in Paris?',
			}),
		]);
	});
});

test('the Chat Completion node streaming an inline <think> reply: the chat gets the answer only', async () => {
	const response = await n8n().webhook('stream-think-inline', { question: 'Why is the sky blue' });
	const text = (await readStreamed(response)).flatMap((read) => read.deltas).join('');
	expect(text).toBe('Why is the sky blue');
});
