/**
 * Echo models that also reason: `think-1` sends the reasoning as `reasoning_content`,
 * `think-inline-1` inline as `<think>...</think>` before the answer. max_tokens cuts only the answer.
 *
 * With the `follow_schema` knob they answer what a structured request asks for, as a reasoning model told to
 * check something does: a call of the function `tool_choice` forces, its arguments built from the function's
 * parameters, else the JSON that `json-1` would answer (a `json_schema` response format, or the last object
 * schema written in a system or user message once a message asks for JSON); its booleans are true only when
 * the last user text contains one of the knob's words. Else they echo. The reasoning comes as without the knob.
 */
import { randomBytes } from 'node:crypto';
import type { ToolCall } from '../chat-messages.mts';
import type { ChatRequest } from '../chat-request.mts';
import { jsonText, type Json } from '../json-value.mts';
import type { FollowSchema } from '../knobs.mts';
import { lastUserText } from '../message-text.mts';
import { exampleValue } from '../schema-example.mts';
import { echoAnswer, limitedAnswer, type Answer } from './echo.mts';
import { jsonAnswer } from './json.mts';
import { releaseDate, type ModelDefinition } from './model.mts';

/** Whether `text` contains one of `words` as a whole word (any case). */
function containsWord(text: string, words: readonly string[]): boolean {
	const lower = text.toLowerCase();
	return words.some((word) => {
		const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(lower);
	});
}

/** What the model answers: text (cut to max_tokens), or the call of a forced function. */
type Reasoned = ({ kind: 'text' } & Answer) | { kind: 'tool_calls'; toolCalls: ToolCall[] };

/** The answer to `request`: an echo, or what `follow_schema` makes of a structured request. */
function answerOf(request: ChatRequest, follow: FollowSchema | undefined): Reasoned {
	if (follow === undefined) return { kind: 'text', ...echoAnswer(request) };
	const text = lastUserText(request.messages);
	const options = { booleans: containsWord(text, follow.trueWords) };
	const choice = request.toolChoice;
	const forced =
		typeof choice === 'object'
			? request.tools.find((tool) => tool.name === choice.name)
			: undefined;
	if (forced !== undefined) {
		const parameters: Json = forced.parameters ?? { type: 'object', properties: {} };
		const call: ToolCall = {
			id: `call_${randomBytes(4).toString('hex')}`,
			type: 'function',
			function: {
				name: forced.name,
				arguments: JSON.stringify(exampleValue(parameters, text, options)),
			},
		};
		return { kind: 'tool_calls', toolCalls: [call] };
	}
	const json = jsonAnswer(request, options);
	if (json === undefined) return { kind: 'text', ...echoAnswer(request) };
	return { kind: 'text', ...limitedAnswer(jsonText(json.value), request) };
}

/** `Reasoning about: <the last user text>`. */
const reasoningFor = (request: ChatRequest): string =>
	`Reasoning about: ${lastUserText(request.messages)}`;

export const reasoningModels: ModelDefinition[] = [
	{
		id: 'think-1',
		created: releaseDate,
		ownedBy: 'local-reasoning',
		respond(request) {
			const model = 'think-1-2026-11-01';
			const answer = answerOf(request, request.knobs.followSchema);
			const reasoningContent = reasoningFor(request);
			if (answer.kind === 'tool_calls') {
				return { kind: 'tool_calls', model, toolCalls: answer.toolCalls, reasoningContent };
			}
			return {
				kind: 'text',
				model,
				content: answer.text,
				reasoningContent,
				finishReason: answer.finishReason,
			};
		},
	},
	{
		id: 'think-inline-1',
		created: releaseDate,
		ownedBy: 'local-reasoning',
		respond(request) {
			const model = 'think-inline-1-2026-11-01';
			const answer = answerOf(request, request.knobs.followSchema);
			const think = `<think>${reasoningFor(request)}</think>`;
			if (answer.kind === 'tool_calls') {
				return { kind: 'tool_calls', model, toolCalls: answer.toolCalls, content: think };
			}
			return {
				kind: 'text',
				model,
				content: `${think}\n\n${answer.text}`,
				finishReason: answer.finishReason,
			};
		},
	},
];
