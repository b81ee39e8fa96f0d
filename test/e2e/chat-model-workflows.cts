/**
 * Workflows for the Chat Model's real-n8n tests: n8n's own AI nodes (AI Agent, Basic LLM Chain, Code Tool,
 * Guardrails, Model Selector, Evaluation) with the Chat Completions Chat Model, behind Webhook triggers; and
 * chats behind public Chat Triggers (reachable without the editor): the chat example, a chat with memory.
 */
import { randomUUID } from 'node:crypto';

import { readExamples } from '../../dev/n8n/examples.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { aiLink, questionsBehindWebhook, webhookNode } from '../../dev/n8n/workflows.cts';
import type { ModelSetup } from '../../dev/n8n/agent.cts';
import { agentNode, chatModel, modelLink } from '../../dev/n8n/agent.cts';

export type { ModelSetup };
export { MODEL_TYPE } from '../../dev/n8n/agent.cts';

const TOOL_TYPE = 'n8n-nodes-chat-completions.chatCompletionTool';

/** n8n's Code Tool "Weather": `{ city }` in, a line of weather out. */
export function weatherTool(): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Weather',
		type: '@n8n/n8n-nodes-langchain.toolCode',
		typeVersion: 1.3,
		position: [240, 240],
		parameters: {
			description: 'The current weather in a city',
			language: 'javaScript',
			jsCode: 'return `${query.city}: sunny, 21 °C`;',
			specifyInputSchema: true,
			schemaType: 'manual',
			inputSchema: JSON.stringify({
				type: 'object',
				properties: { city: { type: 'string', description: 'The city' } },
				required: ['city'],
			}),
		},
	};
}

/**
 * Webhook -> AI Agent (v3.1, the question from the POSTed `question`) with the Chat Model and, unless
 * `tools` is false, the Weather tool. "Continue" on error, so that the agent's error item is the answer
 * (`stopOnError`: Stop Workflow, so that n8n sends a streaming client the agent's error).
 * `answerAtOnce`: the Webhook answers when the request arrives, the execution goes on. `forceToolCall`:
 * the agent's option Force Tool Call on First Iteration. `fallback`: a second Chat Model as the agent's
 * Fallback Model.
 */
export function agentWorkflow(
	path: string,
	model: ModelSetup,
	{
		streaming = false,
		tools = true,
		answerAtOnce = false,
		forceToolCall = false,
		fallback,
		stopOnError = false,
	}: {
		stopOnError?: boolean;
		streaming?: boolean;
		tools?: boolean;
		answerAtOnce?: boolean;
		forceToolCall?: boolean;
		fallback?: ModelSetup;
	} = {},
): WorkflowToImport {
	const agent: WorkflowNode = {
		...agentNode('={{ $json.body.question }}', {
			...(fallback === undefined ? {} : { needsFallback: true }),
			options: {
				enableStreaming: streaming,
				...(forceToolCall ? { forceToolCallOnFirstIteration: true } : {}),
			},
		}),
		...(stopOnError ? {} : { onError: 'continueRegularOutput' }),
	};
	const mode = streaming ? 'streaming' : answerAtOnce ? 'onReceived' : 'lastNode';
	const nodes = [webhookNode(path, mode), agent, chatModel(model)];
	const connections: Record<string, unknown> = {
		Webhook: { main: aiLink('AI Agent', 'main') },
		'Chat Model': modelLink,
	};
	if (tools) {
		nodes.push(weatherTool());
		connections.Weather = { ai_tool: aiLink('AI Agent', 'ai_tool') };
	}
	if (fallback !== undefined) {
		nodes.push(chatModel(fallback, 'Fallback Model'));
		connections['Fallback Model'] = {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 1 }]],
		};
	}
	return {
		id: `e2e-${path}`,
		name: `AI Agent: ${path}`,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook -> HTTP Request (an image from `imageUrl` as binary data) -> AI Agent (the question from the
 * POSTed `question`; the agent passes binary images on to the model by default) with the Chat Model.
 */
export function imageAgentWorkflow(
	path: string,
	model: ModelSetup,
	imageUrl: string,
): WorkflowToImport {
	const workflow = agentWorkflow(path, model, { tools: false });
	const agent = (workflow.nodes as WorkflowNode[]).find((node) => node.name === 'AI Agent');
	if (agent) agent.parameters.text = "={{ $('Webhook').item.json.body.question }}";
	return {
		...workflow,
		nodes: [
			...(workflow.nodes as WorkflowNode[]),
			{
				id: randomUUID(),
				name: 'Download Image',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [-150, 0],
				parameters: {
					url: imageUrl,
					options: { response: { response: { responseFormat: 'file' } } },
				},
			},
		],
		connections: {
			...(workflow.connections as Record<string, unknown>),
			Webhook: { main: aiLink('Download Image', 'main') },
			'Download Image': { main: aiLink('AI Agent', 'main') },
		},
	};
}

/** Webhook -> Basic LLM Chain (v1.9) with the Chat Model. */
export function chainWorkflow(path: string, model: ModelSetup): WorkflowToImport {
	return {
		id: `e2e-${path}`,
		name: `Basic LLM Chain: ${path}`,
		nodes: [
			webhookNode(path, 'lastNode'),
			{
				id: randomUUID(),
				name: 'Basic LLM Chain',
				type: '@n8n/n8n-nodes-langchain.chainLlm',
				typeVersion: 1.9,
				position: [0, 0],
				parameters: { promptType: 'define', text: '={{ $json.body.question }}' },
			},
			chatModel(model),
		],
		connections: {
			Webhook: { main: aiLink('Basic LLM Chain', 'main') },
			'Chat Model': { ai_languageModel: aiLink('Basic LLM Chain', 'ai_languageModel') },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook -> LangChain Code (its Execute code, with a Chat Model input) with the Chat Model: the code asks
 * `withStructuredOutput` (the POSTed `method`, includeRaw) for `{ city }` from the POSTed `question`, and
 * returns the parsed value with the raw reply's text and tool call count.
 */
export function langchainCodeWorkflow(path: string, model: ModelSetup): WorkflowToImport {
	const code = [
		"const llm = await this.getInputConnectionData('ai_languageModel', 0);",
		'const body = $input.first().json.body;',
		"const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };",
		"const structured = llm.withStructuredOutput(schema, { name: 'place', method: body.method, includeRaw: true });",
		'const { raw, parsed } = await structured.invoke(body.question);',
		'return [{ json: { parsed, text: raw.text, calls: (raw.tool_calls ?? []).length } }];',
	].join('\n');
	return {
		id: `e2e-${path}`,
		name: `LangChain Code: ${path}`,
		nodes: [
			webhookNode(path, 'lastNode'),
			{
				id: randomUUID(),
				name: 'LangChain Code',
				type: '@n8n/n8n-nodes-langchain.code',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					code: { execute: { code } },
					inputs: {
						input: [
							{ type: 'main', maxConnections: 1, required: true },
							{ type: 'ai_languageModel', maxConnections: 1, required: true },
						],
					},
					outputs: { output: [{ type: 'main' }] },
				},
			},
			chatModel(model),
		],
		connections: {
			Webhook: { main: aiLink('LangChain Code', 'main') },
			'Chat Model': { ai_languageModel: aiLink('LangChain Code', 'ai_languageModel') },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** examples/<name>.workflow.json with its Chat Trigger public (its production URL answers); and that URL's path. */
export function publicChatExample(
	name: string,
	origin: string,
): { workflow: WorkflowToImport; chatPath: string } {
	const example = readExamples(origin).find((candidate) => candidate.name === name);
	if (example === undefined) throw new Error(`examples/${name}.workflow.json does not exist`);
	const nodes = example.workflow.nodes as WorkflowNode[];
	const trigger = nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	if (trigger?.webhookId === undefined)
		throw new Error(`examples/${name}.workflow.json has no Chat Trigger`);
	const publicTrigger = { ...trigger, parameters: { ...trigger.parameters, public: true } };
	return {
		workflow: {
			...example.workflow,
			id: `e2e-${name}`,
			nodes: nodes.map((node) => (node === trigger ? publicTrigger : node)),
		},
		chatPath: `${trigger.webhookId}/chat`,
	};
}

/**
 * Webhook -> AI Agent with the Chat Model (`tools-1`) and Chat Completion as its one tool, asking `model`
 * with the credential `toolCredential` and the tool's `options`; the agent's question is the POSTed `question`.
 */
export function agentWithChatCompletionTool(
	path: string,
	{
		credential,
		toolCredential = credential,
		model,
		streaming = false,
		options = {},
	}: {
		credential: ModelSetup['credential'];
		toolCredential?: ModelSetup['credential'];
		model: string;
		streaming?: boolean;
		options?: Record<string, unknown>;
	},
): WorkflowToImport {
	const workflow = agentWorkflow(
		path,
		{ credential, model: 'tools-1' },
		{ tools: false, streaming },
	);
	return {
		...workflow,
		nodes: [
			...(workflow.nodes as WorkflowNode[]),
			{
				id: randomUUID(),
				name: 'Chat Completion',
				type: TOOL_TYPE,
				typeVersion: 1.1,
				position: [240, 240],
				parameters: {
					toolDescription: 'Asks another model and returns its answer',
					model: { __rl: true, mode: 'id', value: model },
					promptType: 'simple',
					prompt: "={{ $fromAI('prompt', 'What to ask the other model', 'string') }}",
					options,
				},
				credentials: { chatCompletionsApi: toolCredential },
			} satisfies WorkflowNode,
		],
		connections: {
			...(workflow.connections as Record<string, unknown>),
			'Chat Completion': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
	};
}

/** n8n's OpenAI Chat Model (Chat Completions, not the Responses API) as "Chat Model", asking `tools-1` at `baseUrl`. */
export function openAiChatModel(
	baseUrl: string,
	credential: { id: string; name: string },
): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Chat Model',
		type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		typeVersion: 1.3,
		position: [0, 240],
		parameters: {
			model: { __rl: true, mode: 'id', value: 'tools-1' },
			responsesApiEnabled: false,
			options: { baseURL: baseUrl },
		},
		credentials: { openAiApi: credential },
	};
}

/** The workflow with `node` in place of its node of the same name (another model, another version). */
export function withNode(workflow: WorkflowToImport, node: WorkflowNode): WorkflowToImport {
	const nodes = (workflow.nodes as WorkflowNode[]).map((old) =>
		old.name === node.name ? node : old,
	);
	return { ...workflow, nodes };
}

/** The checks of n8n's Guardrails that ask the model: jailbreak, NSFW, topical alignment and a custom one. */
export const GUARDRAILS_LLM_CHECKS = {
	jailbreak: { value: { threshold: 0.7 } },
	nsfw: { value: { threshold: 0.7 } },
	topicalAlignment: {
		value: {
			threshold: 0.7,
			prompt:
				'You are a content analysis system that determines if text stays on topic.\n\nBUSINESS SCOPE: cooking and recipes.\n\nFlag any content that strays from the allowed topics.',
		},
	},
	custom: {
		guardrail: [
			{
				name: 'No competitors',
				threshold: 0.7,
				prompt: 'Flag text that asks about a competitor of our cooking school.',
			},
		],
	},
};

/**
 * Webhook -> Questions (each object of the POSTed `questions` an item, e.g. `{ "text": "..." }`) -> Guardrails
 * (v2, Check Text for Violations, the LLM checks of GUARDRAILS_LLM_CHECKS on `$json.text`, On Error
 * "Continue": a failed check puts its item on the Fail output with the error) with the Chat Model. Its Pass
 * and Fail outputs are read from the execution.
 */
export function guardrailsWorkflow(path: string, model: ModelSetup): WorkflowToImport {
	const guardrails: WorkflowNode = {
		id: randomUUID(),
		name: 'Guardrails',
		type: '@n8n/n8n-nodes-langchain.guardrails',
		typeVersion: 2,
		position: [0, 0],
		onError: 'continueRegularOutput',
		parameters: {
			operation: 'classify',
			text: '={{ $json.text }}',
			guardrails: GUARDRAILS_LLM_CHECKS,
		},
	};
	const workflow = questionsBehindWebhook(path, guardrails);
	return {
		...workflow,
		name: `Guardrails: ${path}`,
		nodes: [...(workflow.nodes as WorkflowNode[]), chatModel(model)],
		connections: {
			...(workflow.connections as Record<string, unknown>),
			'Chat Model': { ai_languageModel: aiLink('Guardrails', 'ai_languageModel') },
		},
	};
}

/**
 * Webhook -> AI Agent (no tools) whose model is n8n's Model Selector over `models` (`Model 1`, `Model 2`, ...
 * on its inputs 1, 2, ...): rule N picks Model N when the POSTed `pick` is "N".
 */
export function modelSelectorWorkflow(path: string, models: ModelSetup[]): WorkflowToImport {
	const agent = agentWorkflow(path, models[0], { tools: false });
	const rules = models.map((_, index) => ({
		modelIndex: index + 1,
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: [
				{
					id: randomUUID(),
					leftValue: '={{ $json.body.pick }}',
					rightValue: String(index + 1),
					operator: { type: 'string', operation: 'equals' },
				},
			],
			combinator: 'and',
		},
	}));
	const selector: WorkflowNode = {
		id: randomUUID(),
		name: 'Model Selector',
		type: '@n8n/n8n-nodes-langchain.modelSelector',
		typeVersion: 1,
		position: [0, 240],
		parameters: { numberInputs: models.length, rules: { rule: rules } },
	};
	const modelNodes = models.map((model, index) => chatModel(model, `Model ${index + 1}`));
	return {
		...agent,
		name: `Model Selector: ${path}`,
		nodes: [
			...(agent.nodes as WorkflowNode[]).filter((node) => node.name !== 'Chat Model'),
			selector,
			...modelNodes,
		],
		connections: {
			Webhook: { main: aiLink('AI Agent', 'main') },
			'Model Selector': modelLink,
			...Object.fromEntries(
				modelNodes.map((node, index) => [
					node.name,
					{ ai_languageModel: [[{ node: selector.name, type: 'ai_languageModel', index }]] },
				]),
			),
		},
	};
}

/**
 * Webhook -> Correctness -> Helpfulness: n8n's Evaluation node (v4.8, Set Metrics) with its AI-based metrics,
 * both on the one Chat Model. Correctness compares the POSTed `actual` with `expected`; Helpfulness judges
 * `actual` as the answer to `question`. Set Metrics runs outside an evaluation run too (it needs no Evaluation
 * Trigger), so a webhook execution reaches the model; each node's item is its metric.
 */
export function evaluationWorkflow(path: string, model: ModelSetup): WorkflowToImport {
	const body = "$('Webhook').item.json.body";
	const metric = (name: string, x: number, parameters: Record<string, unknown>): WorkflowNode => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.evaluation',
		typeVersion: 4.8,
		position: [x, 0],
		parameters: { operation: 'setMetrics', ...parameters },
	});
	return {
		id: `e2e-${path}`,
		name: `Evaluation: ${path}`,
		nodes: [
			webhookNode(path, 'lastNode'),
			metric('Correctness', 0, {
				metric: 'correctness',
				expectedAnswer: `={{ ${body}.expected }}`,
				actualAnswer: `={{ ${body}.actual }}`,
			}),
			metric('Helpfulness', 240, {
				metric: 'helpfulness',
				userQuery: `={{ ${body}.question }}`,
				actualAnswer: `={{ ${body}.actual }}`,
			}),
			chatModel(model),
		],
		connections: {
			Webhook: { main: aiLink('Correctness', 'main') },
			Correctness: { main: aiLink('Helpfulness', 'main') },
			'Chat Model': {
				ai_languageModel: [
					[
						{ node: 'Correctness', type: 'ai_languageModel', index: 0 },
						{ node: 'Helpfulness', type: 'ai_languageModel', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * A public Chat Trigger (streaming, its production URL answers without a login) -> AI Agent (streaming, no
 * tools) with the Chat Model and n8n's Simple Memory (the session's last 5 turns), as an n8n Chat user
 * builds a chat that remembers; and the chat's path. `webhookId`: the trigger's id (the path's first part).
 */
export function chatWithMemoryWorkflow(
	id: string,
	webhookId: string,
	model: ModelSetup,
): { workflow: WorkflowToImport; chatPath: string } {
	const trigger: WorkflowNode = {
		id: randomUUID(),
		name: 'When chat message received',
		type: '@n8n/n8n-nodes-langchain.chatTrigger',
		typeVersion: 1.4,
		position: [-440, 0],
		webhookId,
		parameters: { public: true, options: { responseMode: 'streaming' } },
	};
	const memory: WorkflowNode = {
		id: randomUUID(),
		name: 'Simple Memory',
		type: '@n8n/n8n-nodes-langchain.memoryBufferWindow',
		typeVersion: 1.3,
		position: [240, 240],
		parameters: { contextWindowLength: 5 },
	};
	return {
		workflow: {
			id: `e2e-${id}`,
			name: `n8n Chat with memory: ${id}`,
			nodes: [
				trigger,
				agentNode('={{ $json.chatInput }}', { options: { enableStreaming: true } }),
				chatModel(model),
				memory,
			],
			connections: {
				[trigger.name]: { main: aiLink('AI Agent', 'main') },
				'Chat Model': modelLink,
				'Simple Memory': { ai_memory: aiLink('AI Agent', 'ai_memory') },
			},
			settings: { executionOrder: 'v1' },
		},
		chatPath: `${webhookId}/chat`,
	};
}
