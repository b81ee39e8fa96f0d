import type { IDataObject } from 'n8n-workflow';

/** Fields of a reply item that only some replies have, kept on each of its Tool Calls items. */
const NOTES = ['cost', 'request_id', 'attempts', 'prompt_cache', 'warnings'];

/**
 * The Tool Calls output: one item per call the model asked for, so a Switch on `name` can
 * route each to the nodes that run it. Each item carries the conversation (`messages`, ending
 * with the model's request) that a Chat Completion node continues once `result` is set.
 * `args` repeats `arguments` for expressions, which refuse to read a field named `arguments`. The
 * reasoning stays on `message` as the service sent it, so the next request sends it back. `cost`,
 * `request_id`, `attempts`, `prompt_cache` and `warnings` come as on the Reply output, when the reply has them.
 */
export function toolCallItems(reply: IDataObject): IDataObject[] {
	const calls = reply.tool_calls as IDataObject[];
	const notes = Object.fromEntries(
		NOTES.filter((name) => reply[name] !== undefined).map((name) => [name, reply[name]]),
	);
	return calls.map((call, index) => ({
		id: call.id,
		name: call.name,
		arguments: call.arguments,
		args: call.args,
		index,
		count: calls.length,
		content: reply.content,
		...(reply.reasoning === undefined ? {} : { reasoning: reply.reasoning }),
		reply_id: reply.id,
		model: reply.model,
		usage: reply.usage,
		...notes,
		finish_reason: reply.finish_reason,
		message: reply.message,
		messages: reply.messages,
	}));
}
