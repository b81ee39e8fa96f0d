import type { Tool } from '@n8n/ai-node-sdk';
import { getParametersJsonSchema } from '@n8n/ai-node-sdk';

import type { protocol } from '../../../engine';

/**
 * The tools an AI node binds (n8n's tool sub-nodes, the agent's output-format tool) as protocol `tools`.
 * Their schemas come as Zod or JSON Schema; the `$schema` marker is left out. Provider tools (a vendor's
 * built-in tools) are not chat-completions functions and are not sent.
 */
export function toolDefinitions(tools: readonly Tool[]): protocol.ToolDefinition[] {
	return tools.flatMap((tool): protocol.ToolDefinition[] => {
		if (tool.type !== 'function') return [];
		const parameters = { ...(getParametersJsonSchema(tool) as Record<string, unknown>) };
		delete parameters.$schema;
		const definition: protocol.ToolDefinition = {
			type: 'function',
			function: { name: tool.name, parameters },
		};
		if (tool.description) definition.function.description = tool.description;
		if (tool.strict === true) (definition.function as Record<string, unknown>).strict = true;
		return [definition];
	});
}

/** The tools with `function.strict` set: the call asked for strict tools (LangChain's `strict`). */
export function strictTools(tools: readonly protocol.ToolDefinition[]): protocol.ToolDefinition[] {
	return tools.map((tool) => ({ ...tool, function: { ...tool.function, strict: true } }));
}
