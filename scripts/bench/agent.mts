/**
 * n8n's AI Agent (v3.1, from n8n's own install) with the Chat Completions Chat Model, at their defaults, in n8n's
 * engine: one agent turn per item `{ prompt }`, the prompt as the agent's text, no tools. A contender of the
 * rate-limit batch (scripts/bench/rate-limits.mts) beside the Chat Completion node, its reply the agent's
 * `output`. The nodes are the real-n8n tests' (dev/n8n/agent.cts).
 */
import type { IConnections, INode, INodeExecutionData } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials.ts';
import { LmChatCompletions } from '../../nodes/LmChatCompletions/LmChatCompletions.node.ts';
import { AGENT_TYPE, agentNode, chatModel, MODEL_TYPE, modelLink } from '../../dev/n8n/agent.cts';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Contender } from './contenders.mts';
import { CREDENTIAL_TYPE } from './clients.mts';
import { items } from './contenders.mts';
import { LANGCHAIN, n8nType } from './n8n-install.mts';

export const AGENT_LABEL = 'AI Agent + Chat Model';

/** The agent and its Chat Model (model echo-1) on the key `apiKey` at `baseUrl`. */
export function agentContender(baseUrl: string, apiKey: string): Contender {
	const engine = createEngine({
		nodeTypes: {
			[AGENT_TYPE]: n8nType(`${LANGCHAIN}/agents/Agent/Agent.node.js`, 'Agent'),
			[MODEL_TYPE]: new LmChatCompletions(),
		},
		credentialTypes: { [CREDENTIAL_TYPE]: new ChatCompletionsApi() },
		credentials: { [CREDENTIAL_TYPE]: { apiKey, baseUrl } },
	});
	const credential = { id: CREDENTIAL_TYPE, name: CREDENTIAL_TYPE };
	const workflow = {
		nodes: [
			agentNode('={{ $json.prompt }}'),
			chatModel({ credential, model: 'echo-1' }),
		] as unknown as INode[],
		connections: { 'Chat Model': modelLink } as IConnections,
	};
	return {
		async run({ count, settings }) {
			const agent = { ...workflow.nodes[0], ...settings };
			const { runData, error, status } = await engine.runWorkflow({
				workflow: { ...workflow, nodes: [agent, workflow.nodes[1]] },
				startNode: agent.name,
				items: items(count),
			});
			const outputs = (runData[agent.name]?.[0]?.data?.main ?? []).map((output) => output ?? []);
			return { outputs, error, status, hints: [] };
		},
		reply: (item: INodeExecutionData) =>
			typeof item.json.output === 'string' && item.json.error === undefined
				? item.json.output
				: undefined,
	};
}
