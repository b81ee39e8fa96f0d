/**
 * `tools-1` calls the request's functions when the last message is a user message (see
 * tool-call-plan.mts), and once the last messages are tool results answers
 * `Based on the tools: name(arguments) = result; ...`. With tool_choice 'none' or no tools it echoes like echo-1.
 */
import type { ChatMessage, ToolCall } from '../chat-messages.mts';
import type { ChatRequest } from '../chat-request.mts';
import { lastUserText, messageText } from '../message-text.mts';
import { echoReply, limitedReply } from './echo.mts';
import { releaseDate, type ModelDefinition, type ModelReply } from './model.mts';
import { planToolCalls } from './tool-call-plan.mts';

const model = 'tools-1-2026-11-01';

/** `name(arguments) = content` for each tool message at the end of `messages`, joined with '; '. */
function toolResults(messages: readonly ChatMessage[]): string {
	const calls = new Map<string, ToolCall>(
		messages.flatMap((message) => (message.toolCalls ?? []).map((call) => [call.id, call])),
	);
	const results: string[] = [];
	for (let index = messages.length - 1; messages[index]?.role === 'tool'; index -= 1) {
		const message = messages[index];
		// checkToolSequence made sure that every tool message answers a call.
		const call = calls.get(message.toolCallId ?? '')?.function;
		results.unshift(`${call?.name}(${call?.arguments}) = ${messageText(message)}`);
	}
	return results.join('; ');
}

function respond(request: ChatRequest): ModelReply {
	const last = request.messages.at(-1);
	if (last?.role === 'tool') {
		return limitedReply(model, `Based on the tools: ${toolResults(request.messages)}`, request);
	}
	if (last?.role === 'user' && request.tools.length > 0 && request.toolChoice !== 'none') {
		const text = lastUserText(request.messages);
		return {
			kind: 'tool_calls',
			model,
			toolCalls: planToolCalls(text, request.tools, request.toolChoice),
		};
	}
	return echoReply(model, request);
}

export const toolsModel: ModelDefinition = {
	id: 'tools-1',
	created: releaseDate,
	ownedBy: 'local-tools',
	respond,
};
