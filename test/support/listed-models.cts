/**
 * The models the local service lists for its keys, sorted by id as the nodes' lists show them
 * (dev/service/config.json's groups), and the credentials that ask for them in one gateway's shape (the service's `x-local-models` header, sent
 * as the credential's Extra Headers).
 */
import { keys } from './service.cts';

/** The default key's models: the chat models a Model list shows for it. */
export const DEFAULT_KEY_MODELS = [
	'echo-1',
	'json-1',
	'think-1',
	'think-inline-1',
	'think-tools-1',
	'tools-1',
	'vision-1',
];

/** Every model the catalogue key may call, sorted by id: what a list shows when the gateway tells no kind. */
export const CATALOGUE_MODELS = [
	'echo-1',
	'embed-1',
	'image-1',
	'local/*',
	'rerank-1',
	'tts-local',
	'vision-1',
	'whisper-local',
];

/** n8n credentials for the local service at `baseUrl`, answering `/models` in `shape` (its default without one). */
export function catalogueCredentials(baseUrl: string, shape?: string, apiKey = keys.catalogue) {
	return {
		chatCompletionsApi: {
			apiKey,
			baseUrl,
			...(shape === undefined ? {} : { extraHeaders: JSON.stringify({ 'x-local-models': shape }) }),
		},
	};
}
