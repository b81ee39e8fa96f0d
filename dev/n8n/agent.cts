/**
 * n8n's AI Agent (v3.1) with the Chat Completions Chat Model, as nodes and their link: what the real-n8n tests'
 * agent workflows (test/e2e/chat-model-workflows.cts) and the batch benchmark's agent in n8n's engine
 * (scripts/bench/agent.mts) are built from.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowNode } from './workflows.cts';
import { aiLink } from './workflows.cts';

export const MODEL_TYPE = 'n8n-nodes-chat-completions.lmChatCompletions';
export const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';

export interface ModelSetup {
	credential: { id: string; name: string };
	model: string;
	options?: Record<string, unknown>;
	/** The node version (1 unless given) and its fields besides Model and Options (Response Format's, from 1.1). */
	typeVersion?: number;
	fields?: Record<string, unknown>;
}

/** The Chat Model node named `name` (`Chat Model` unless given). */
export function chatModel(
	{ credential, model, options, typeVersion, fields }: ModelSetup,
	name = 'Chat Model',
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: MODEL_TYPE,
		typeVersion: typeVersion ?? 1,
		position: [name === 'Chat Model' ? 0 : 120, 240],
		parameters: {
			model: { __rl: true, mode: 'id', value: model },
			...fields,
			options: options ?? {},
		},
		credentials: { chatCompletionsApi: credential },
	};
}

/** The AI Agent node (`AI Agent`), its prompt the expression `text`, with these parameters besides. */
export function agentNode(text: string, parameters: Record<string, unknown> = {}): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'AI Agent',
		type: AGENT_TYPE,
		typeVersion: 3.1,
		position: [0, 0],
		parameters: { promptType: 'define', text, options: {}, ...parameters },
	};
}

/** The Chat Model's link to the AI Agent as its model. */
export const modelLink = { ai_languageModel: aiLink('AI Agent', 'ai_languageModel') };
