const REPLY = '{ type: "main", displayName: "Reply" }';
const TOOL_CALLS = '{ type: "main", displayName: "Tool Calls" }';

/** The node's outputs, as an n8n expression: Reply, and Tool Calls when tools are configured. */
export const outputsExpression = `["define", "json"].includes($parameter.toolsMode) ? [${REPLY}, ${TOOL_CALLS}] : [${REPLY}]`;
