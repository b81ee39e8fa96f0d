/** The local service's audio endpoints: speech (JSON, real MP3 and WAV bytes), transcriptions and translations (multipart). */
import { loggedFile, readMp3, readWav, sha, silentWav } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import {
	expectInvalidRequest,
	expectModelRefused,
	formOf,
	postForm,
	send,
	speak,
	withService,
} from './client.cts';

const service = useLocalService();

const say = (body: Record<string, unknown>) =>
	speak(service(), keys.media, {
		model: 'tts-local',
		input: 'Hello from the local voice',
		voice: 'nova',
		...body,
	});

type Upload = [name: string, bytes: Buffer, filename: string, type: string];

const hear = (
	files: Upload[],
	fields: Record<string, string> = {},
	path = '/audio/transcriptions',
	key = keys.media,
) => postForm(service(), path, key, formOf({ model: 'whisper-local', ...fields }, files));

describe('POST /v1/audio/speech', () => {
	it('answers MP3 (audio/mpeg) by default: an ID3 tag with the text and voice, 0.4 s a word of frames', async () => {
		const reply = await say({});
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toBe('audio/mpeg');
		expect(Number(reply.headers.get('content-length'))).toBe(reply.bytes.length);
		const mp3 = readMp3(reply.bytes);
		expect(mp3.tags).toEqual({ TIT2: 'Hello from the local voice', TPE1: 'nova' });
		// 5 words: 2 s, 1152 samples a frame at 44.1 kHz.
		expect(mp3.frames).toBe(Math.round(2 / (1152 / 44100)));
	});

	it('answers WAV (audio/wav) when asked, its length divided by speed', async () => {
		const reply = await say({ response_format: 'wav', speed: 2 });
		expect(reply.headers.get('content-type')).toBe('audio/wav');
		expect(readWav(reply.bytes)).toEqual({
			sampleRate: 8000,
			channels: 1,
			bitsPerSample: 16,
			seconds: 1,
			info: { INAM: 'Hello from the local voice', IART: 'nova' },
		});
	});

	it('answers raw PCM (audio/pcm) when asked: the samples of the WAV, without its header', async () => {
		const raw = await say({ response_format: 'pcm', speed: 2 });
		expect(raw.headers.get('content-type')).toBe('audio/pcm');
		const wav = await say({ response_format: 'wav', speed: 2 });
		expect(wav.bytes.subarray(wav.bytes.length - raw.bytes.length)).toEqual(raw.bytes);
		// 1 s of 16-bit mono samples at 8 kHz.
		expect(raw.bytes.length).toBe(16000);
	});

	it('sends the Content-Type the knob content_type names', async () => {
		const reply = await say({ x_local: { content_type: 'audio/mp3' } });
		expect(reply.headers.get('content-type')).toBe('audio/mp3');
		expect(reply.bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
	});

	it.each([
		['no input', { input: undefined }, 'input', /^'input' must be a non-empty string, got nothing/],
		[
			'an input over 4096 characters',
			{ input: 'a'.repeat(4097) },
			'input',
			/at most 4096 characters, got 4097/,
		],
		['no voice', { voice: undefined }, 'voice', /^'voice' must be a non-empty string/],
		[
			'a voice the model lacks',
			{ voice: 'darth' },
			'voice',
			/^Invalid value for 'voice': 'darth'. Supported values are: 'alloy'/,
		],
		['speed 5', { speed: 5 }, 'speed', /^'speed' must be a number from 0.25 to 4, got number 5/],
		[
			'a format not in the list',
			{ response_format: 'ogg' },
			'response_format',
			/^Invalid value for 'response_format': 'ogg'/,
		],
		[
			'a format the model does not make',
			{ response_format: 'opus' },
			'response_format',
			/'opus' is not offered by `tts-local`: choose 'mp3', 'wav' or 'pcm'/,
		],
	])('refuses %s with a 400 naming the field', async (_name, body, param, message) => {
		expectInvalidRequest(await say(body), param, message);
	});

	it('refuses a chat model (400) and is answered by a fault model as chat is', async () => {
		const chatModel = await say({ model: 'echo-1' });
		expectModelRefused(chatModel, 400, 'The model `echo-1` does not support text-to-speech');
		const fault = await speak(service(), keys.faults, {
			model: 'fault-500',
			input: 'a',
			voice: 'nova',
		});
		expect(fault.status).toBe(500);
	});
});

describe('POST /v1/audio/transcriptions and /translations', () => {
	it('hears what tts-local said: the title tag of its MP3 and WAV is the transcript', async () => {
		const mp3 = (await say({})).bytes;
		const wav = (await say({ response_format: 'wav' })).bytes;
		const fromMp3 = await hear([['file', mp3, 'speech.mp3', 'audio/mpeg']]);
		expect(fromMp3.status).toBe(200);
		expect(fromMp3.json).toEqual({
			text: 'Hello from the local voice',
			usage: { type: 'duration', seconds: 2 },
		});
		const fromWav = await hear([['file', wav, 'speech.wav', 'audio/wav']], {
			response_format: 'text',
		});
		expect(fromWav.headers.get('content-type')).toMatch(/^text\/plain/);
		expect(fromWav.text).toBe('Hello from the local voice\n');
	});

	it('names any other recording by its container, size and digest', async () => {
		const recording = silentWav(1.5);
		const reply = await hear([['file', recording, 'meeting.wav', 'audio/x-wav']]);
		expect(reply.json.text).toBe(
			`A wav recording of ${recording.length} bytes, sha256 ${sha(recording)}.`,
		);
	});

	it('gives verbose_json with segments spread over the recording, its language and task', async () => {
		const input = 'one two three four five six seven eight';
		const wav = (await say({ input, response_format: 'wav' })).bytes;
		const reply = await hear([['file', wav, 'a.wav', 'audio/wav']], {
			response_format: 'verbose_json',
			language: 'de',
			temperature: '0.2',
			prompt: 'Numbers.',
		});
		expect(reply.json).toMatchObject({
			task: 'transcribe',
			language: 'german',
			duration: 3.2,
			text: input,
		});
		expect(reply.json.segments).toEqual([
			expect.objectContaining({ id: 0, start: 0, end: 2.4, text: ' one two three four five six' }),
			expect.objectContaining({ id: 1, start: 2.4, end: 3.2, text: ' seven eight' }),
		]);
		const translated = await hear(
			[['file', wav, 'a.wav', 'audio/wav']],
			{ response_format: 'verbose_json' },
			'/audio/translations',
		);
		expect(translated.json).toMatchObject({ task: 'translate', language: 'english', text: input });
	});

	it('gives srt and vtt from the same segments', async () => {
		const wav = (
			await say({ input: 'one two three four five six seven eight', response_format: 'wav' })
		).bytes;
		const srt = await hear([['file', wav, 'a.wav', 'audio/wav']], { response_format: 'srt' });
		expect(srt.text).toBe(
			'1\n00:00:00,000 --> 00:00:02,400\none two three four five six\n\n2\n00:00:02,400 --> 00:00:03,200\nseven eight\n\n',
		);
		const vtt = await hear([['file', wav, 'a.wav', 'audio/wav']], { response_format: 'vtt' });
		expect(vtt.text).toMatch(
			/^WEBVTT\n\n00:00:00\.000 --> 00:00:02\.400\none two three four five six\n\n/,
		);
	});

	it('records the file part with its name, type, size and digest', async () => {
		const recording = silentWav(0.5);
		await hear([['file', recording, 'r.wav', 'audio/wav']], { language: 'en' });
		const [request] = await service().requests();
		expect(request.body).toEqual([
			loggedFile('file', 'r.wav', 'audio/wav', recording),
			{ name: 'model', value: 'whisper-local' },
			{ name: 'language', value: 'en' },
		]);
	});

	const wav = silentWav(0.5);
	it.each<[string, Upload[], Record<string, string>, string, RegExp]>([
		['no file', [], {}, 'file', /^'file' is required/],
		[
			'two files',
			[
				['file', wav, 'a.wav', 'audio/wav'],
				['file', wav, 'b.wav', 'audio/wav'],
			],
			{},
			'file',
			/sent more than once/,
		],
		[
			'a file name without an extension',
			[['file', wav, 'data', 'audio/wav']],
			{},
			'file',
			/^Invalid file format: the file name "data" has no supported extension/,
		],
		[
			'an extension no one reads',
			[['file', wav, 'a.aiff', 'audio/aiff']],
			{},
			'file',
			/^Invalid file format/,
		],
		[
			'a text type',
			[['file', wav, 'a.wav', 'text/plain']],
			{},
			'file',
			/sent with the type text\/plain/,
		],
		[
			'bytes of another kind',
			[['file', wav, 'a.mp3', 'audio/mpeg']],
			{},
			'file',
			/could not be decoded .*"a.mp3" does not hold mp3 audio/,
		],
		[
			'bytes of no recording',
			[['file', Buffer.from('hello'), 'a.ogg', 'audio/ogg']],
			{},
			'file',
			/could not be decoded/,
		],
		[
			'a language that is no ISO-639-1 code',
			[['file', wav, 'a.wav', 'audio/wav']],
			{ language: 'english' },
			'language',
			/^Invalid language 'english'/,
		],
		[
			'temperature 2',
			[['file', wav, 'a.wav', 'audio/wav']],
			{ temperature: '2' },
			'temperature',
			/from 0 to 1/,
		],
		[
			'response_format diarized',
			[['file', wav, 'a.wav', 'audio/wav']],
			{ response_format: 'diarized' },
			'response_format',
			/^Invalid value for 'response_format'/,
		],
	])('refuses %s with a 400 naming the field', async (_name, files, fields, param, message) => {
		expectInvalidRequest(await hear(files, fields), param, message);
	});

	it('refuses a language field on translations as an unknown argument', async () => {
		const reply = await hear(
			[['file', wav, 'a.wav', 'audio/wav']],
			{ language: 'en' },
			'/audio/translations',
		);
		expectInvalidRequest(reply, 'language', /^Unrecognized request argument supplied: language/);
	});

	it('answers 413 to a body over 25 MiB, before reading it', async () => {
		const big = Buffer.alloc(25 * 1024 * 1024 + 1);
		const reply = await hear([['file', big, 'big.wav', 'audio/wav']]);
		expect(reply.status).toBe(413);
		expect(reply.json.error.message).toMatch(
			/^Maximum content size limit \(26214400\) exceeded \(\d+ bytes read\)$/,
		);
	});

	it('refuses a chat model with a 404 naming it; a bad key 401', async () => {
		const reply = await hear([['file', wav, 'a.wav', 'audio/wav']], { model: 'echo-1' });
		expectModelRefused(
			reply,
			404,
			'The model `echo-1` does not support audio transcriptions or translations',
		);
		expect(
			(
				await hear(
					[['file', wav, 'a.wav', 'audio/wav']],
					{},
					'/audio/transcriptions',
					'sk-example-bad-0000',
				)
			).status,
		).toBe(401);
	});

	it('fail_first through an x_local field: 429 with Retry-After, then 200; 502', async () => {
		const files: Upload[] = [['file', wav, 'a.wav', 'audio/wav']];
		const x_local = JSON.stringify({
			fail_first: { id: 'stt', count: 1, status: 429, retry_after: '1' },
		});
		const limited = await hear(files, { x_local });
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('1');
		expect((await hear(files, { x_local })).status).toBe(200);
		const bad = JSON.stringify({ fail_first: { id: 'stt2', count: 1, status: 502 } });
		expect((await hear(files, { x_local: bad })).status).toBe(502);
	});

	it('cut_at through an x_local field: the answer ends after its first N characters, status and type kept', async () => {
		const mp3 = (await say({ input: 'When does the garden open' })).bytes;
		const cut = await hear([['file', mp3, 'speech.mp3', 'audio/mpeg']], {
			x_local: JSON.stringify({ cut_at: 26 }),
		});
		expect(cut.status).toBe(200);
		expect(cut.headers.get('content-type')).toMatch(/^application\/json/);
		expect(cut.text).toBe('{"text":"When does the gar');
	});

	it("is under the key's rate limit like chat", async () => {
		await withService(['--rate-limit', 'media=1/60s'], async (limited) => {
			const form = () => formOf({ model: 'whisper-local' }, [['file', wav, 'a.wav', 'audio/wav']]);
			expect((await postForm(limited, '/audio/transcriptions', keys.media, form())).status).toBe(
				200,
			);
			const refused = await postForm(limited, '/audio/translations', keys.media, form());
			expect(refused.status).toBe(429);
			expect(refused.json.error.code).toBe('rate_limit_exceeded');
		});
	});

	it('takes a file part sent raw, with a multipart body written by hand', async () => {
		const boundary = 'b0undary';
		const body = Buffer.concat([
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-local\r\n`,
			),
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
			),
			wav,
			Buffer.from(`\r\n--${boundary}--\r\n`),
		]);
		const reply = await send(`${service().baseUrl}/audio/transcriptions`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${keys.media}`,
				'Content-Type': `multipart/form-data; boundary=${boundary}`,
			},
			body,
		});
		expect(reply.json.text).toBe(`A wav recording of ${wav.length} bytes, sha256 ${sha(wav)}.`);
	});
});
