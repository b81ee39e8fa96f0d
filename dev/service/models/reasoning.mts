/**
 * Echo models that also reason: `think-1` sends the reasoning as `reasoning_content`,
 * `think-inline-1` inline as `<think>...</think>` before the answer. max_tokens cuts only the answer.
 */
import { lastUserText } from '../message-text.mts';
import { echoAnswer } from './echo.mts';
import { releaseDate, type ModelDefinition } from './model.mts';

export const reasoningModels: ModelDefinition[] = [
	{
		id: 'think-1',
		created: releaseDate,
		ownedBy: 'local-reasoning',
		respond(request) {
			const answer = echoAnswer(request);
			return {
				kind: 'text',
				model: 'think-1-2026-11-01',
				content: answer.text,
				reasoningContent: `Reasoning about: ${lastUserText(request.messages)}`,
				finishReason: answer.finishReason,
			};
		},
	},
	{
		id: 'think-inline-1',
		created: releaseDate,
		ownedBy: 'local-reasoning',
		respond(request) {
			const answer = echoAnswer(request);
			const reasoning = `Reasoning about: ${lastUserText(request.messages)}`;
			return {
				kind: 'text',
				model: 'think-inline-1-2026-11-01',
				content: `<think>${reasoning}</think>\n\n${answer.text}`,
				finishReason: answer.finishReason,
			};
		},
	},
];
