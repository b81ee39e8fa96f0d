import type { MediaPath, ServiceError } from '../errors';
import { MediaReplyError } from '../errors';
import type { FailureKind } from '../kind';
import { cannotServeMedia, refusedByPolicy, refusesUploadSize } from '../service-signs';
import { mismatchedReply } from './reply';
import { modelCannot, service } from './service';

/** What an image or audio endpoint's model does, the model it takes, and how to find one in the list. */
const MEDIA_MODELS: Array<{ paths: MediaPath[]; does: string; model: string; fix: string }> = [
	{
		paths: ['images/generations', 'images/edits'],
		does: 'make images',
		model: 'an image model',
		fix: 'Choose an image model in the Model field (the list shows every model of the key; image models often have "image", "dall-e", "flux" or "seedream" in their ID). Where a gateway answers images in chat (OpenRouter, Vercel AI Gateway), use the Chat Completion node with Output Modalities instead.',
	},
	{
		paths: ['audio/transcriptions', 'audio/translations'],
		does: 'transcribe recordings',
		model: 'a transcription model',
		fix: 'Choose a transcription model in the Model field (the list shows every model of the key; transcription models often have "whisper" or "transcribe" in their ID).',
	},
	{
		paths: ['audio/speech'],
		does: 'speak',
		model: 'a text-to-speech model',
		fix: 'Choose a text-to-speech model in the Model field (the list shows every model of the key; speech models often have "tts", "speech" or "kokoro" in their ID).',
	},
];

const at = (paths: MediaPath[]) => (error: ServiceError) =>
	paths.includes(error.endpoint as MediaPath);

/**
 * What goes wrong only with images and audio: the provider's content policy refuses the prompt (at any
 * endpoint), a model the endpoint refuses, an upload the service finds too large, a reply without what was
 * asked for. None is retried and none falls back: another attempt gets the same answer. A recording over the
 * limit is refused before anything is sent (an InputError); the rest (the key, rate limits, 5xx, a service
 * without the endpoint) reads as for every request.
 */
export const MEDIA_KINDS: FailureKind[] = [
	service({
		name: 'content policy',
		anotherModel: false,
		test: refusedByPolicy,
		words: () => ({
			message: "The provider's content policy refused the prompt",
			fix: 'Reword the prompt: leave out what a safety filter may object to (real people by name, violence, brands, explicit content). The same prompt gets the same answer.',
		}),
	}),
	...MEDIA_MODELS.map(({ paths, does, model, fix }) =>
		modelCannot(
			`model cannot ${does}`,
			(error) => at(paths)(error) && cannotServeMedia(error),
			does,
			model,
			fix,
		),
	),
	service({
		name: 'upload too large',
		anotherModel: false,
		test: refusesUploadSize,
		words: (error) => ({
			message: `The service refused the ${error.endpoint === 'images/edits' ? 'images' : 'recording'} as too large`,
			fix: 'Send less: a recording of at most 25 MB (shorter, or compressed, e.g. as MP3 at 64 kbit/s: about 50 minutes), or smaller images.',
		}),
	}),
	mismatchedReply('image or audio reply unusable', MediaReplyError, (error) => error.fix),
];
