import type { MediaType } from './sniff';
import { audioTypeOf, sniffAudio, speechFormatType } from './sniff';
import type { Endpoint } from '../failures/errors';
import { MediaReplyError } from '../failures/errors';
import { readBody } from '../reply/body';
import { errorInJson, serviceErrorFrom } from '../reply/error-body';
import type { HttpReply, WholeReply } from '../transport/outgoing';
import { isPlainObject } from '../values';

/** The replies of the audio endpoints: a transcription's text (and what else the service sent), speech's bytes. */

export interface Transcription {
	text: string;
	/** What else a JSON reply holds (verbose_json: `language`, `duration`, `segments`, ...), as sent; {} for text. */
	details: Record<string, unknown>;
}

const RETRY_FIX =
	'Nothing of this reply is used. Run again; if it keeps happening, report it to the service with this message, or choose another model. A web page instead of a reply: check the Base URL in the credential.';

/**
 * Reads the reply of POST /audio/transcriptions or /audio/translations: `{text, ...}` (json, verbose_json) or the
 * text itself (text, srt, vtt; a final line end dropped). An error status, or an error object inside a 2xx, is
 * the ServiceError it says, naming the operation `at`; a 2xx without a text (a JSON object without `text`, a web
 * page, nothing) is a MediaReplyError naming the model.
 */
export function readTranscription(reply: HttpReply, at: Endpoint): Transcription {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body, at);
	if (isPlainObject(body.json)) {
		const { text, ...details } = body.json;
		if (typeof text === 'string') return { text, details };
		if (errorInJson(body.json)?.message !== undefined) throw serviceErrorFrom(reply, body, at);
		throw new MediaReplyError(
			'transcription',
			`answered ${reply.status} without a text: ${body.summary}`,
			RETRY_FIX,
		);
	}
	if (body.kind === 'html' || body.kind === 'empty') {
		const what = body.kind === 'html' ? `an HTML page (${body.summary})` : 'an empty body';
		throw new MediaReplyError(
			'transcription',
			`answered ${reply.status} with ${what} instead of a text`,
			RETRY_FIX,
		);
	}
	return { text: reply.text.replace(/\r?\n$/, ''), details: {} };
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
			RETRY_FIX,
		);
	}
	const type = sniffed ??
		audioTypeOf(contentType) ??
		speechFormatType(format) ?? { mimeType: 'application/octet-stream', extension: 'bin' };
	return { bytes, type };
}
