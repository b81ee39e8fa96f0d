import type { ModelSettings } from './model';
import type { Connection } from '../../../engine';
import { buildChatRequest } from '../../../engine';

/**
 * Checks the Chat Model's Model and Options the way a request would (ranges, Extra Body, JSON Schema)
 * before any AI node calls it, so that a wrong field fails at once and names the field.
 */
export function modelSettings(
	connection: Connection,
	model: unknown,
	options: Record<string, unknown>,
): ModelSettings {
	const { body } = buildChatRequest({
		model,
		// A system message, so that Prompt Caching's System Message finds its place.
		messages: [
			{ role: 'system', content: 'Check the settings' },
			{ role: 'user', content: 'Check the settings' },
		],
		options,
	});
	return { connection, model: body.model, options };
}
