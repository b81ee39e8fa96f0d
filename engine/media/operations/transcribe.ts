import type { ItemUpload, MediaInput, MediaOperationRow } from './operation';
import { TRANSCRIPTION_MODEL } from './models';
import type { MediaFile } from '../multipart';
import { formBody } from '../multipart';
import { hint, language, temperature, transcriptFormat } from '../options';
import type { Transcription } from '../read-audio';
import { readTranscription } from '../read-audio';
import type { Around } from '../request';
import { checkRecordingSize, formParts, recordingUpload } from '../request';

/** Transcribe or Translate a Recording: the recording, read once admitted. */
export interface RecordingInput extends MediaInput {
	recording: ItemUpload;
}

/**
 * POST /audio/transcriptions and /audio/translations: `file`, `model`, and `language`, `prompt`,
 * `response_format` and `temperature` when set; `field` names the node's field in the error for a recording
 * over the limit.
 */
export function transcriptionParts(request: Around, file: MediaFile, field: string) {
	checkRecordingSize(file.bytes.length, `the recording ${file.fileName}`, field);
	return formParts(request, {}, [{ name: 'file', file }]);
}

const body = async ({ request, recording }: RecordingInput) =>
	formBody(transcriptionParts(request, recordingUpload(await recording.read()), recording.field));

export const transcribe = {
	endpoint: {
		operation: 'transcribe',
		name: 'transcription',
		offers: 'transcriptions',
		model: TRANSCRIPTION_MODEL,
		uploads: 'recording',
	},
	paths: { openai: 'audio/transcriptions' },
	options: [language, hint, transcriptFormat, temperature],
	ownFields: ['file'],
	body,
	read: (reply, _input, at) => readTranscription(reply, at),
} as const satisfies MediaOperationRow<RecordingInput, Transcription>;

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
