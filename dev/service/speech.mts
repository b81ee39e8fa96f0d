/**
 * POST /v1/audio/speech (JSON `{model, input, voice, response_format?, speed?, instructions?}`): `tts-local`
 * (models/audio.mts) answers real audio bytes (audio/encode.mts) with the format's Content-Type: MP3
 * (`audio/mpeg`, the default), WAV (`audio/wav`) or raw PCM (`audio/pcm`, no header); other formats of OpenAI's
 * list are a 400 naming what it offers. The recording lasts 0.4 s a word at speed 1, and says its text and voice in its tags.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { mp3, pcm, wav } from './audio/encode.mts';
import { endpointBody, nonEmptyString, optionalChoice, optionalNumber } from './body-fields.mts';
import type { ChatContext } from './chat.mts';
import { endpointModel } from './endpoint-model.mts';
import { ApiError, invalidRequest } from './errors.mts';
import { checkFailFirst } from './knob-faults.mts';
import { parseSpeechKnobs } from './media-knobs.mts';
import { isSpeechModel } from './models/audio.mts';
import type { ModelDefinition } from './models/model.mts';
import { countWords } from './words.mts';

const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
/** What `tts-local` makes, and the type it sends. */
const OFFERED: Record<string, { make: typeof wav; contentType: string }> = {
	mp3: { make: mp3, contentType: 'audio/mpeg' },
	wav: { make: wav, contentType: 'audio/wav' },
	pcm: { make: (seconds) => pcm(seconds), contentType: 'audio/pcm' },
};
const MAX_INPUT_CHARS = 4096;
const SECONDS_PER_WORD = 0.4;

/** A model that does not speak (a chat model): a 400 naming the model. */
const cannotSpeak = (model: ModelDefinition) =>
	new ApiError({
		status: 400,
		message: `The model \`${model.id}\` does not support text-to-speech`,
		type: 'invalid_request_error',
		param: 'model',
		code: 'model_not_supported',
	});

export async function speech(
	res: ServerResponse,
	rawBody: string,
	context: ChatContext,
): Promise<void> {
	const {
		body,
		knobs,
		model: id,
	} = endpointBody(
		rawBody,
		['input', 'voice', 'response_format', 'speed', 'instructions', 'stream_format'],
		parseSpeechKnobs,
	);
	const input = nonEmptyString(body.input, 'input');
	if (input.length > MAX_INPUT_CHARS) {
		throw invalidRequest(
			`'input' must be at most ${MAX_INPUT_CHARS} characters, got ${input.length}`,
			'input',
			'invalid_value',
		);
	}
	const voice = nonEmptyString(body.voice, 'voice');
	const format = optionalChoice(body.response_format, 'response_format', FORMATS) ?? 'mp3';
	const speed = optionalNumber(body.speed, 'speed', 0.25, 4) ?? 1;
	const model = await endpointModel(res, id, context, isSpeechModel, cannotSpeak);
	if (model === undefined) return;
	optionalChoice(voice, 'voice', model.voices);
	const offered = OFFERED[format];
	if (offered === undefined) {
		throw invalidRequest(
			`'response_format' '${format}' is not offered by \`${model.id}\`: choose ${Object.keys(
				OFFERED,
			)
				.map((name) => `'${name}'`)
				.join(', ')
				.replace(/, ([^,]*)$/, ' or $1')}`,
			'response_format',
			'invalid_value',
		);
	}
	if (knobs.slowMs > 0) await delay(knobs.slowMs);
	checkFailFirst(knobs.failFirst, context.counts);
	const seconds = Math.max(0.5, (countWords(input) * SECONDS_PER_WORD) / speed);
	const bytes = offered.make(seconds, { title: input, artist: voice });
	res.writeHead(200, {
		'Content-Type': knobs.contentType ?? offered.contentType,
		'Content-Length': String(bytes.length),
	});
	res.end(bytes);
}
