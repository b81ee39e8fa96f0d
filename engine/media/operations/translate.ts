import type { MediaOperationRow } from './operation';
import type { RecordingInput, Transcription } from './transcribe';
import { transcribe } from './transcribe';
import { hint, temperature, transcriptFormat } from '../options';

/** Translate a Recording: a transcription in English, without Language. */
export const translate = {
	...transcribe,
	endpoint: {
		...transcribe.endpoint,
		operation: 'translate',
		name: 'translation',
		offers: 'translations',
	},
	paths: { openai: 'audio/translations' },
	options: [hint, transcriptFormat, temperature],
} as const satisfies MediaOperationRow<RecordingInput, Transcription>;
