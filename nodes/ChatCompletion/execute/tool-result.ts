import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * What the node returns when an AI Agent runs it as a tool: n8n hands the model the whole item, so only
 * what a model can use goes back (the reply text; the parsed JSON, a refusal or the model's own tool calls
 * when there are any; the finish reason when Maximum Tokens cut the reply), not usage, ids or the
 * conversation with its images.
 */
export function toolResult(reply: IDataObject): IDataObject {
	const result: IDataObject = { content: reply.content };
	const calls = reply.tool_calls as IDataObject[];
	if (calls.length > 0) {
		result.tool_calls = calls.map(({ name, arguments: args }) => ({ name, arguments: args }));
	}
	if (reply.json !== undefined) result.json = reply.json;
	if (reply.refusal !== undefined) result.refusal = reply.refusal;
	if (reply.finish_reason === 'length') result.finish_reason = 'length';
	return result;
}

/**
 * Whether an AI Agent runs the node as a tool. n8n's AI Agent v3 has the engine run the tool node with an
 * ordinary execute context, whose isToolExecution() is false; but the node then has n8n's tool type
 * (`chatCompletionTool`, made from `usableAsTool`, whose only output is the agent's tool connection).
 */
export function runsAsTool(context: IExecuteFunctions): boolean {
	return context.isToolExecution?.() === true || context.getNode?.().type.endsWith('Tool') === true;
}
