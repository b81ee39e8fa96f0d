/**
 * The audio models: `whisper-local` transcribes and translates recordings (POST /v1/audio/transcriptions and
 * /translations, transcriptions.mts), `tts-local` speaks a text (POST /v1/audio/speech, speech.mts) with one of
 * its voices. Asked for a chat completion they answer 400, as audio models behind gateways do.
 */
import { releaseDate, type ModelDefinition } from './model.mts';
import { notForChat } from './not-for-chat.mts';

export interface TranscriptionModel extends ModelDefinition {
	transcribes: true;
}

export interface SpeechModel extends ModelDefinition {
	/** The voices it speaks with (OpenAI's and Kokoro's names). */
	voices: readonly string[];
}

export const transcriptionModel: TranscriptionModel = {
	id: 'whisper-local',
	created: releaseDate,
	ownedBy: 'local-audio',
	transcribes: true,
	respond: notForChat('whisper-local', 'a transcription model', '/v1/audio/transcriptions'),
};

export const speechModel: SpeechModel = {
	id: 'tts-local',
	created: releaseDate,
	ownedBy: 'local-audio',
	voices: ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'af_heart'],
	respond: notForChat('tts-local', 'a text-to-speech model', '/v1/audio/speech'),
};

export function isTranscriptionModel(model: ModelDefinition): model is TranscriptionModel {
	return 'transcribes' in model;
}

export function isSpeechModel(model: ModelDefinition): model is SpeechModel {
	return 'voices' in model;
}
