/**
 * Which shape a request's video routes answer in: the `x-local-video` header's (`openai`, `openrouter`,
 * `new-api`; a test knob the credential's Extra Headers carry), else the key's `videoApi` (config.json). A key
 * without one answers no video route.
 */
import type { IncomingMessage } from 'node:http';
import { VIDEO_APIS, type KeyRecord, type VideoApi } from '../config.mts';
import { invalidRequest } from '../errors.mts';

export const VIDEO_HEADER = 'x-local-video';

export function videoApiOf(req: IncomingMessage, key: KeyRecord): VideoApi | undefined {
	const asked = req.headers[VIDEO_HEADER];
	if (asked === undefined) return key.videoApi;
	const known = VIDEO_APIS.find((api) => api === asked);
	if (known === undefined) {
		throw invalidRequest(
			`'${VIDEO_HEADER}' must be one of ${VIDEO_APIS.join(', ')}, got ${JSON.stringify(asked)}`,
			VIDEO_HEADER,
			'invalid_value',
		);
	}
	return known;
}
