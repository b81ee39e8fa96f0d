/**
 * Workflows for the Chat Model's real-n8n tests: n8n's own AI nodes (AI Agent, Basic LLM Chain, Code Tool)
 * with the Chat Completions Chat Model, behind Webhook triggers; and the chat example with its Chat
 * Trigger made public (reachable without the editor).
 */
import { randomUUID } from 'node:crypto';

import { readExamples } from '../../dev/n8n/examples.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { aiLink, webhookNode } from '../../dev/n8n/workflows.cts';
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
