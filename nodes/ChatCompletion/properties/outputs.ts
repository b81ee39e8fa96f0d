const REPLY = '{ type: "main", displayName: "Reply" }';
const TOOL_CALLS = '{ type: "main", displayName: "Tool Calls" }';

/** The Tools modes that configure tools, and so give the node its Tool Calls output. */
const MODES_WITH_TOOLS = ['define', 'json'];

/** Whether the node has the Tool Calls output for this value of the Tools parameter. */
export function hasToolCallsOutput(toolsMode: unknown): boolean {
	return MODES_WITH_TOOLS.includes(toolsMode as string);
}

/** The node's outputs, as an n8n expression: Reply, and Tool Calls when tools are configured. */
export const outputsExpression = `${JSON.stringify(MODES_WITH_TOOLS)}.includes($parameter.toolsMode) ? [${REPLY}, ${TOOL_CALLS}] : [${REPLY}]`;
