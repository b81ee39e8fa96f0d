/**
 * `think-tools-1`: `tools-1` in DeepSeek's thinking mode. Every answer (tool calls or text) carries its
 * reasoning (in `reasoning_content`, or the field the `reasoning_field` knob names), and, as DeepSeek does
 * since V3.2, an assistant message that made tool calls after the last user message (the same turn) must
 * be sent back with that field, else HTTP 400 with DeepSeek's own body.
 */
import type { ChatRequest } from '../chat-request.mts';
import { ApiError } from '../errors.mts';
import { lastUserText } from '../message-text.mts';
import { releaseDate, type ModelDefinition, type ModelReply } from './model.mts';
import { toolsModel } from './tools.mts';

const model = 'think-tools-1-2026-11-01';

/** Throws DeepSeek's 400 for the first tool-call message of this turn sent back without its reasoning. */
function checkReasoningSentBack(request: ChatRequest): void {
	const field = request.knobs.reasoningField;
	const { messages } = request;
	const turnStart = messages.map((message) => message.role).lastIndexOf('user') + 1;
	for (let index = turnStart; index < messages.length; index++) {
		const message = messages[index];
		if (message.role !== 'assistant' || message.toolCalls === undefined) continue;
		if (message.reasoningFields?.includes(field)) continue;
		throw new ApiError({
			status: 400,
			message: `Missing \`${field}\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
			type: 'invalid_request_error',
			param: null,
			code: 'invalid_request_error',
		});
	}
}

async function respond(request: ChatRequest, context: Parameters<ModelDefinition['respond']>[1]) {
	checkReasoningSentBack(request);
	const reply: ModelReply = await toolsModel.respond(request, context);
	if (reply.kind !== 'text' && reply.kind !== 'tool_calls') return reply;
	const last = request.messages.at(-1);
	const about = last?.role === 'tool' ? 'the tool results' : lastUserText(request.messages);
	return { ...reply, model, reasoningContent: `Reasoning about: ${about}` };
}

export const thinkingToolsModel: ModelDefinition = {
	id: 'think-tools-1',
	created: releaseDate,
	ownedBy: 'local-reasoning',
	respond,
};
