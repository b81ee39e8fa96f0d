import type { Endpoint } from '../../failures/errors';

/** What the image operations' model does, for a model their endpoints refuse. */
export const IMAGE_MODEL: NonNullable<Endpoint['model']> = {
	does: 'make images',
	kind: 'an image model',
	fix: 'Choose an image model in the Model field (the list shows every model of the key; image models often have "image", "dall-e", "flux" or "seedream" in their ID). Where a gateway answers images in chat (OpenRouter, Vercel AI Gateway), use the Chat Completion node with Output Modalities instead.',
};

/** What the transcription operations' model does, for a model their endpoints refuse. */
export const TRANSCRIPTION_MODEL: NonNullable<Endpoint['model']> = {
	does: 'transcribe recordings',
	kind: 'a transcription model',
	fix: 'Choose a transcription model in the Model field (the list shows every model of the key; transcription models often have "whisper" or "transcribe" in their ID).',
};

/** The fix of an audio reply without what was asked for. */
export const AUDIO_RETRY_FIX =
	'Nothing of this reply is used. Run again; if it keeps happening, report it to the service with this message, or choose another model. A web page instead of a reply: check the Base URL in the credential.';
