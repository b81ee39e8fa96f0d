import type { MediaInput, MediaOperationRow } from './operation';
import { output, speechFormat, speed } from '../options';
import type { Speech } from '../read-audio';
import { readSpeech } from '../read-audio';
import type { Around } from '../request';

/** Generate Audio: the text and the voice, checked by the node. */
export interface SpeakInput extends MediaInput {
	input: string;
	voice: string;
}

/** POST /audio/speech: `{model, input, voice, response_format?, speed?}`. */
export function speechBody(request: Around, input: string, voice: string): Record<string, unknown> {
	return { ...request.fields, model: request.model, input, voice };
}

export const speak = {
	endpoint: {
		operation: 'speak',
		name: 'speech',
		offers: 'speech',
		model: {
			does: 'speak',
			kind: 'a text-to-speech model',
			fix: 'Choose a text-to-speech model in the Model field (the list shows every model of the key; speech models often have "tts", "speech" or "kokoro" in their ID).',
		},
	},
	paths: { openai: 'audio/speech' },
	options: [speechFormat, speed, output],
	ownFields: ['input', 'voice'],
	body: async ({ request, input, voice }) => ({ body: speechBody(request, input, voice) }),
	read: (reply, { request }, at) => {
		const format = request.fields.response_format;
		return readSpeech(reply, typeof format === 'string' ? format : undefined, at);
	},
} as const satisfies MediaOperationRow<SpeakInput, Speech>;
