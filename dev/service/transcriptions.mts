/**
 * POST /v1/audio/transcriptions and /v1/audio/translations (multipart): `whisper-local` (models/audio.mts)
 * "hears" the recording sent as `file`: a recording the speech model made says its text in its title tag, which
 * is the transcript; any other is described by its container, size and digest, so that a test can tell which
 * file arrived. The file is checked as OpenAI checks it: a name with a supported extension, an audio type, bytes
 * of that kind, at most 25 MB (a bigger body is a 413, before anything else is read).
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { optionalChoice, optionalNumber } from './body-fields.mts';
import type { ChatContext } from './chat.mts';
import { digest } from './digest.mts';
import { endpointModel } from './endpoint-model.mts';
import { ApiError, invalidRequest } from './errors.mts';
import { formRequest, formValue } from './form-fields.mts';
import { sendText } from './http-io.mts';
import { checkFailFirst } from './knob-faults.mts';
import { parseAudioKnobs } from './media-knobs.mts';
import { isTranscriptionModel } from './models/audio.mts';
import type { ModelDefinition } from './models/model.mts';
import { parseMultipart, type FormPart } from './multipart.mts';
import { readRecording, type Container, type Recording } from './audio/recording.mts';
import { TRANSCRIPT_FORMATS, transcriptBody, type Transcript } from './audio/transcript.mts';

export type Task = Transcript['task'];

/** OpenAI's limit on an upload to its audio endpoints: 25 MiB. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** The file extensions OpenAI takes, and the container each names. */
const EXTENSIONS: Record<string, Container> = {
	flac: 'flac',
	m4a: 'mp4',
	mp3: 'mp3',
	mp4: 'mp4',
	mpeg: 'mp3',
	mpga: 'mp3',
	oga: 'ogg',
	ogg: 'ogg',
	wav: 'wav',
	webm: 'webm',
};

/** ISO-639-1 codes the model names in verbose_json; other codes are named as they came. */
const LANGUAGES: Record<string, string> = {
	de: 'german',
	en: 'english',
	es: 'spanish',
	fr: 'french',
	it: 'italian',
	ja: 'japanese',
	nl: 'dutch',
	pt: 'portuguese',
	zh: 'chinese',
};

/** A model that does not transcribe (a chat model): 404 naming the model, as a gateway without such a route answers. */
const cannotTranscribe = (model: ModelDefinition) =>
	new ApiError({
		status: 404,
		message: `The model \`${model.id}\` does not support audio transcriptions or translations`,
		type: 'invalid_request_error',
		param: 'model',
		code: 'model_not_supported',
	});

function tooLarge(bytes: number): ApiError {
	return new ApiError({
		status: 413,
		message: `Maximum content size limit (${MAX_UPLOAD_BYTES}) exceeded (${bytes} bytes read)`,
		type: 'invalid_request_error',
		code: 'request_too_large',
	});
}

/** The one `file` part: named with a supported extension, sent with an audio type, its bytes of that kind. */
function recordingOf(files: readonly FormPart[]): Recording & { bytes: Buffer } {
	if (files.length !== 1) {
		throw invalidRequest(
			files.length === 0 ? "'file' is required" : "'file' was sent more than once",
			'file',
			files.length === 0 ? 'missing_required_parameter' : 'invalid_value',
		);
	}
	const [file] = files;
	const extension = /\.([a-z0-9]+)$/i.exec(file.filename ?? '')?.[1].toLowerCase();
	const container = extension === undefined ? undefined : EXTENSIONS[extension];
	if (container === undefined) {
		throw invalidRequest(
			`Invalid file format: the file name ${JSON.stringify(file.filename)} has no supported extension (${Object.keys(EXTENSIONS).join(', ')})`,
			'file',
			'invalid_value',
		);
	}
	const type = file.contentType ?? 'none';
	if (!/^(audio|video)\//.test(type) && type !== 'application/octet-stream') {
		throw invalidRequest(
			`'file' was sent with the type ${type}: send a recording with its audio type, e.g. audio/mpeg`,
			'file',
			'invalid_value',
		);
	}
	const recording = readRecording(file.data);
	if (recording?.container !== container) {
		throw invalidRequest(
			`The audio file could not be decoded or its format is not supported: ${JSON.stringify(file.filename)} does not hold ${extension} audio`,
			'file',
			'invalid_value',
		);
	}
	return { ...recording, bytes: file.data };
}

/** What the model hears: the title the speech model wrote, or a description that names the bytes. */
function heard(recording: Recording & { bytes: Buffer }): string {
	const { title, container, bytes } = recording;
	return title ?? `A ${container} recording of ${bytes.length} bytes, sha256 ${digest(bytes)}.`;
}

export async function transcriptions(
	res: ServerResponse,
	task: Task,
	contentType: string | undefined,
	body: Buffer,
	context: ChatContext,
): Promise<void> {
	if (body.length > MAX_UPLOAD_BYTES) throw tooLarge(body.length);
	const languageField = task === 'transcribe' ? ['language'] : [];
	const form = formRequest(
		parseMultipart(contentType, body),
		{ text: [...languageField, 'prompt', 'response_format', 'temperature'], files: ['file'] },
		parseAudioKnobs,
	);
	const language = form.text.get('language');
	if (language !== undefined && !/^[a-z]{2}$/.test(language)) {
		throw invalidRequest(
			`Invalid language '${language}': the language must be an ISO-639-1 code, e.g. 'en'`,
			'language',
			'invalid_value',
		);
	}
	const format =
		optionalChoice(form.text.get('response_format'), 'response_format', TRANSCRIPT_FORMATS) ??
		'json';
	optionalNumber(formValue(form.text, 'temperature'), 'temperature', 0, 1);
	const recording = recordingOf(form.files);
	const model = await endpointModel(
		res,
		form.model,
		context,
		isTranscriptionModel,
		cannotTranscribe,
	);
	if (model === undefined) return;
	if (form.knobs.slowMs > 0) await delay(form.knobs.slowMs);
	checkFailFirst(form.knobs.failFirst, context.counts);
	const name =
		task === 'translate' ? 'english' : (LANGUAGES[language ?? 'en'] ?? language ?? 'english');
	const transcript = { task, language: name, seconds: recording.seconds, text: heard(recording) };
	const { body: answer, contentType: type } = transcriptBody(transcript, format);
	const cut = form.knobs.cutAt === undefined ? answer : answer.slice(0, form.knobs.cutAt);
	sendText(res, 200, cut, { 'Content-Type': type });
}
