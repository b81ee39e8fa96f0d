/** The replies of the audio endpoints: a transcription's text and details, speech's bytes and their type. */
import { MediaReplyError, ServiceError } from '../../../engine/failures/errors';
import { readTranscription } from '../../../engine/media/operations/transcribe';
import { describeProblem } from '../../../engine/problems/describe-problem';
import { replyWith as reply, subNodeWords } from '../../support/sub-node-replies.cts';
import { endpointAt } from '../../support/endpoints.cts';
import { readSpeech } from '../../support/media-requests.cts';

const WORDS = subNodeWords('the Chat Completions Media node', []);
const said = (error: unknown, model: string) =>
	describeProblem(error, { words: WORDS, model, baseUrl: 'https://gw.example.com/v1' });

/** What `run` throws. */
function thrown(run: () => unknown): unknown {
	try {
		run();
	} catch (error) {
		return error;
	}
	throw new Error('nothing was thrown');
}

describe('transcriptions', () => {
	test('json: the text, and what else the service sent as details', () => {
		expect(
			readTranscription(
				reply({ text: 'Hello.', usage: { type: 'duration', seconds: 2 } }),
				endpointAt('audio/transcriptions'),
			),
		).toEqual({
			text: 'Hello.',
			details: { usage: { type: 'duration', seconds: 2 } },
		});
	});

	test('verbose_json keeps language, duration and segments as sent', () => {
		const segments = [{ id: 0, start: 0, end: 1.2, text: ' Hello.' }];
		expect(
			readTranscription(
				reply({ task: 'transcribe', language: 'english', duration: 1.2, text: 'Hello.', segments }),
				endpointAt('audio/transcriptions'),
			),
		).toEqual({
			text: 'Hello.',
			details: { task: 'transcribe', language: 'english', duration: 1.2, segments },
		});
	});

	test('text, srt and vtt: the body itself, without its last line end', () => {
		expect(
			readTranscription(reply('Hello there.\n'), endpointAt('audio/translations'), 'text'),
		).toEqual({
			text: 'Hello there.',
			details: {},
		});
		const srt = '1\n00:00:00,000 --> 00:00:01,200\nHello.\n\n';
		expect(readTranscription(reply(srt), endpointAt('audio/transcriptions'), 'srt').text).toBe(
			'1\n00:00:00,000 --> 00:00:01,200\nHello.\n',
		);
		expect(readTranscription(reply('42'), endpointAt('audio/transcriptions'), 'vtt').text).toBe(
			'42',
		);
	});

	test.each([
		[
			'a JSON object without text',
			{ transcript: 'x' },
			'The transcription model "whisper-1" answered 200 without a text: {"transcript":"x"}',
		],
		[
			'an empty body',
			'',
			'The transcription model "whisper-1" answered 200 with an empty body instead of a text',
		],
		[
			'a web page',
			'<html><title>Sign in</title></html>',
			'The transcription model "whisper-1" answered 200 with an HTML page (Sign in) instead of a text',
		],
		[
			'JSON cut off (JSON asked for, as when nothing is sent)',
			'{"text":"When does the gar',
			'The transcription model "whisper-1" answered 200 with a body that is not the JSON asked for (response_format json), perhaps cut off: {"text":"When does the gar',
		],
		[
			'plain text when JSON was asked for',
			'When does the garden open?',
			'The transcription model "whisper-1" answered 200 with a body that is not the JSON asked for (response_format json), perhaps cut off: When does the garden open?',
		],
	])('%s is an error naming the model', (_name, body, message) => {
		const error = thrown(() => readTranscription(reply(body), endpointAt('audio/transcriptions')));
		expect(error).toBeInstanceOf(MediaReplyError);
		expect(said(error, 'whisper-1').message).toBe(message);
	});

	test('an error status or an error in a 200 is the service error, marked with the endpoint', () => {
		const error = thrown(() =>
			readTranscription(
				reply({ error: { message: 'bad file' } }, 400),
				endpointAt('audio/translations'),
			),
		);
		expect(error).toBeInstanceOf(ServiceError);
		expect((error as ServiceError).endpoint?.path).toBe('audio/translations');
		expect(
			thrown(() =>
				readTranscription(
					reply({ error: { message: 'boom' } }),
					endpointAt('audio/transcriptions'),
				),
			),
		).toBeInstanceOf(ServiceError);
	});
});

describe('speech', () => {
	const mp3 = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
	const pcm = Buffer.from([1, 0, 2, 0, 3, 0]);
	const speech = (bytes: Buffer, contentType?: string, status = 200) => ({
		status,
		headers:
			contentType === undefined ? {} : ({ 'content-type': contentType } as Record<string, string>),
		bytes,
		text: bytes.toString('utf8'),
	});

	test('typed by the bytes first: MP3 is audio/mpeg .mp3 whatever the header says', () => {
		for (const header of ['audio/mpeg', 'audio/mp3', 'application/octet-stream', undefined]) {
			expect(readSpeech(speech(mp3, header), 'wav')).toEqual({
				bytes: mp3,
				type: { mimeType: 'audio/mpeg', extension: 'mp3' },
			});
		}
	});

	test('bytes of no known kind: the type the service sent, else the format asked for, else plain bytes', () => {
		expect(readSpeech(speech(pcm, 'audio/pcm'), 'mp3').type).toEqual({
			mimeType: 'audio/pcm',
			extension: 'pcm',
		});
		expect(readSpeech(speech(pcm, 'application/octet-stream'), 'pcm').type).toEqual({
			mimeType: 'audio/pcm',
			extension: 'pcm',
		});
		expect(readSpeech(speech(pcm), undefined).type).toEqual({
			mimeType: 'application/octet-stream',
			extension: 'bin',
		});
	});

	test.each([
		[
			'JSON',
			Buffer.from('{"status":"queued"}'),
			'application/json',
			'The speech model "tts-1" answered 200 with application/json ({"status":"queued"}) instead of audio',
		],
		[
			'a web page',
			Buffer.from('<html><title>Login</title></html>'),
			'text/html',
			'The speech model "tts-1" answered 200 with text/html (Login) instead of audio',
		],
		[
			'nothing',
			Buffer.alloc(0),
			'audio/mpeg',
			'The speech model "tts-1" answered 200 with an empty body instead of audio',
		],
	])(
		'a 200 with %s instead of audio is an error naming the model',
		(_name, bytes, type, message) => {
			const error = thrown(() => readSpeech(speech(bytes, type), 'mp3'));
			expect(error).toBeInstanceOf(MediaReplyError);
			expect(said(error, 'tts-1').message).toBe(message);
		},
	);

	test('an error status, or an error in a 200, is the service error, marked with the endpoint', () => {
		const error = thrown(() =>
			readSpeech(
				speech(Buffer.from('{"error":{"message":"Invalid voice"}}'), 'application/json', 400),
				'mp3',
			),
		);
		expect(error).toBeInstanceOf(ServiceError);
		expect(error).toMatchObject({
			status: 400,
			serviceMessage: 'Invalid voice',
			endpoint: endpointAt('audio/speech'),
		});
		const inside = thrown(() =>
			readSpeech(speech(Buffer.from('{"error":"quota"}'), 'application/json'), 'mp3'),
		);
		expect(inside).toBeInstanceOf(ServiceError);
	});
});
