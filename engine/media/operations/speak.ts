import { AUDIO_RETRY_FIX } from './failure-words';
import type { MediaInput, MediaOperationRow } from './operation';
import { output } from '../options';
import type { Around } from '../request';
import type { MediaType } from '../sniff';
import { audioTypeOf, sniffAudio, speechFormatType } from '../sniff';
import type { Endpoint } from '../../failures/errors';
import { MediaReplyError } from '../../failures/errors';
import type { ChoiceOption, NumberOption } from '../../options/table';
import { readBody } from '../../reply/body';
import { errorInJson, serviceErrorFrom } from '../../reply/error-body';
import type { WholeReply } from '../../transport/outgoing';

/** Generate Audio: the text and the voice, checked by the node. */
export interface SpeakInput extends MediaInput {
	input: string;
	voice: string;
}

const speechFormat = {
	kind: 'choice',
	name: 'responseFormat',
	label: 'Response Format',
	default: 'mp3',
	wire: 'response_format',
	choices: [
		{ name: 'MP3', value: 'mp3', description: 'MP3 (mp3)' },
		{ name: 'Opus', value: 'opus', description: 'Opus in Ogg, for streaming (opus)' },
		{ name: 'AAC', value: 'aac', description: 'AAC (aac)' },
		{ name: 'FLAC', value: 'flac', description: 'Lossless FLAC (flac)' },
		{ name: 'WAV', value: 'wav', description: 'Uncompressed WAV (wav)' },
		{ name: 'PCM', value: 'pcm', description: 'Raw 24 kHz 16-bit samples, no header (pcm)' },
	],
	description:
		'The audio format (response_format). Not added, nothing is sent and the service answers in its own (MP3 for most).',
} as const satisfies ChoiceOption;

const speed = {
	kind: 'number',
	name: 'speed',
	label: 'Speed',
	default: 1,
	min: 0.25,
	max: 4,
	whole: false,
	precision: 2,
	wire: 'speed',
	fix: 'Use a number from 0.25 to 4; 1 is normal speed.',
	description: 'How fast the voice speaks (speed): 0.25 to 4, 1 is normal. Not added, normal.',
} as const satisfies NumberOption;

/** POST /audio/speech: `{model, input, voice, response_format?, speed?}`. */
export function speechBody(request: Around, input: string, voice: string): Record<string, unknown> {
	return { ...request.fields, model: request.model, input, voice };
}

export interface Speech {
	bytes: Uint8Array;
	/** The type of the bytes, else the one the service sent, else the format asked for. */
	type: MediaType;
}

/** Content types that say the body is a message, not audio. */
const MESSAGE_TYPE = /^(application\/(json|problem\+json)|text\/)/i;

/**
 * Reads the reply of POST /audio/speech: the audio bytes, typed by the bytes themselves (MP3 is `audio/mpeg`,
 * `.mp3`), else by the Content-Type the service sent (`audio/mp3` read as `audio/mpeg`), else by the format asked
 * for (`format`: `mp3`, `wav`, `pcm`, ...). An error status, or an error object in a 2xx, is the ServiceError it
 * says, naming the operation `at`; a 2xx with a message, a web page or nothing instead of audio is a MediaReplyError naming the model.
 */
export function readSpeech(reply: WholeReply, format: string | undefined, at: Endpoint): Speech {
	const { status, headers, bytes } = reply;
	const contentType = headers['content-type'];
	const sniffed = sniffAudio(bytes);
	const isMessage =
		sniffed === undefined && (bytes.length === 0 || MESSAGE_TYPE.test(contentType ?? ''));
	if (status < 200 || status >= 300 || isMessage) {
		const body = readBody(reply.text);
		if (status < 200 || status >= 300 || errorInJson(body.json)?.message !== undefined) {
			throw serviceErrorFrom(reply, body, at);
		}
		const what =
			body.kind === 'empty' ? 'an empty body' : `${contentType ?? 'a message'} (${body.summary})`;
		throw new MediaReplyError(
			'speech',
			`answered ${status} with ${what} instead of audio`,
			AUDIO_RETRY_FIX,
		);
	}
	const type = sniffed ??
		audioTypeOf(contentType) ??
		speechFormatType(format) ?? { mimeType: 'application/octet-stream', extension: 'bin' };
	return { bytes, type };
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
		text: {
			what: 'the text to speak',
			fix: "Shorten the text to what the service's message allows (OpenAI's voices take at most 4,096 characters), or split it into parts, one item each (e.g. by paragraphs with a Code node or Split Out), and speak each part.",
		},
	},
	models: 'speech',
	paths: { openai: 'audio/speech' },
	options: [speechFormat, speed, output],
	ownFields: ['input', 'voice'],
	body: async ({ request, input, voice }) => ({ body: speechBody(request, input, voice) }),
	read: (reply, { request }, at) => {
		const format = request.fields.response_format;
		return readSpeech(reply, typeof format === 'string' ? format : undefined, at);
	},
} as const satisfies MediaOperationRow<SpeakInput, Speech>;
