import { AUDIO_RETRY_FIX, TRANSCRIPTION_MODEL } from './failure-words';
import type { ItemUpload, MediaInput, MediaOperationRow } from './operation';
import type { MediaFile } from '../multipart';
import { formBody } from '../multipart';
import { hint, temperature, transcriptFormat } from '../options';
import type { Around } from '../request';
import { checkRecordingSize, formParts, recordingUpload } from '../request';
import type { Endpoint } from '../../failures/errors';
import { MediaReplyError } from '../../failures/errors';
import type { TextOption } from '../../options/table';
import { readBody } from '../../reply/body';
import { errorInJson, serviceErrorFrom } from '../../reply/error-body';
import type { HttpReply } from '../../transport/outgoing';
import { isPlainObject } from '../../values';

/** Transcribe or Translate a Recording: the recording, read once admitted. */
export interface RecordingInput extends MediaInput {
	recording: ItemUpload;
}

export interface Transcription {
	text: string;
	/** What else a JSON reply holds (verbose_json: `language`, `duration`, `segments`, ...), as sent; {} for text. */
	details: Record<string, unknown>;
}

/**
 * Reads the reply of POST /audio/transcriptions or /audio/translations: `{text, ...}` (json, verbose_json) or the
 * text itself (text, srt, vtt; a final line end dropped). `format` is the response_format sent (none: the
 * service answers JSON). An error status, or an error object inside a 2xx, is the ServiceError it says, naming
 * the operation `at`; a 2xx without a text (a JSON object without `text`, a web page, nothing, or, when JSON was
 * asked for, a body that is no JSON, such as one cut off) is a MediaReplyError naming the model.
 */
export function readTranscription(reply: HttpReply, at: Endpoint, format?: string): Transcription {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body, at);
	if (isPlainObject(body.json)) {
		const { text, ...details } = body.json;
		if (typeof text === 'string') return { text, details };
		if (errorInJson(body.json)?.message !== undefined) throw serviceErrorFrom(reply, body, at);
		throw new MediaReplyError(
			'transcription',
			`answered ${reply.status} without a text: ${body.summary}`,
			AUDIO_RETRY_FIX,
		);
	}
	if (body.kind === 'html' || body.kind === 'empty') {
		const what = body.kind === 'html' ? `an HTML page (${body.summary})` : 'an empty body';
		throw new MediaReplyError(
			'transcription',
			`answered ${reply.status} with ${what} instead of a text`,
			AUDIO_RETRY_FIX,
		);
	}
	if (JSON_FORMATS.has(format ?? 'json')) {
		throw new MediaReplyError(
			'transcription',
			`answered ${reply.status} with a body that is not the JSON asked for (response_format ${format ?? 'json'}), perhaps cut off: ${body.summary}`,
			AUDIO_RETRY_FIX,
		);
	}
	return { text: reply.text.replace(/\r?\n$/, ''), details: {} };
}

/** The response formats whose reply is a JSON object; the others (text, srt, vtt) are the text itself. */
const JSON_FORMATS = new Set(['json', 'verbose_json']);

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
	formBody(
		transcriptionParts(
			request,
			recordingUpload(await recording.read(), recording.source, recording.field),
			recording.field,
		),
	);

const language = {
	kind: 'text',
	name: 'language',
	label: 'Language',
	default: 'en',
	placeholder: 'e.g. en',
	wire: 'language',
	description:
		"The recording's language as an ISO-639-1 code such as en or de (language), which makes the transcript faster and better. Not added, the model detects it.",
} as const satisfies TextOption;

export const transcribe = {
	endpoint: {
		operation: 'transcribe',
		name: 'transcription',
		offers: 'transcriptions',
		model: TRANSCRIPTION_MODEL,
		uploads: 'recording',
	},
	models: 'transcription',
	paths: { openai: 'audio/transcriptions' },
	options: [language, hint, transcriptFormat, temperature],
	ownFields: ['file'],
	body,
	read: (reply, { request }, at) => {
		const format = request.fields.response_format;
		return readTranscription(reply, at, typeof format === 'string' ? format : undefined);
	},
} as const satisfies MediaOperationRow<RecordingInput, Transcription>;
