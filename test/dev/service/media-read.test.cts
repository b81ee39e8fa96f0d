/** The engine's media units against the local service: the bodies and multipart it makes are read as sent, and its readers read each answer and mode. */
import { editParts } from '../../../engine/media/operations/edit';
import { generationBody } from '../../../engine/media/operations/generate';
import { speechBody } from '../../../engine/media/operations/speak';
import { MAX_RECORDING_BYTES, imageUpload } from '../../../engine/media/request';
import { multipartBody } from '../../../engine/media/multipart';
import type { FormPart } from '../../../engine/media/multipart';
import { downloadedType, messageImages, readImages } from '../../../engine/media/read-images';
import type { ReplyImage } from '../../../engine/media/read-images';
import { readTranscription } from '../../../engine/media/operations/transcribe';
import { describeProblem } from '../../../engine/problems/describe-problem';
import type { HttpReply, WholeReply } from '../../../engine/transport/outgoing';
import { readPng, silentWav } from '../../support/media.cts';
import { keys, useLocalService } from '../../support/service.cts';
import { subNodeWords } from '../../support/sub-node-replies.cts';
import { chat, send } from './client.cts';
import type { Reply } from './client.cts';
import { endpointAt } from '../../support/endpoints.cts';
import {
	mediaRequest,
	readSpeech,
	recordingUpload,
	transcriptionParts,
} from '../../support/media-requests.cts';

const service = useLocalService();

const WORDS = subNodeWords('the Chat Completions Media node', []);

const http = (reply: Reply): WholeReply => ({
	status: reply.status,
	headers: Object.fromEntries(reply.headers),
	text: reply.text,
	bytes: reply.bytes,
});

/** What the user reads of `run`'s failure with `model`. */
function readsAs(run: () => unknown, model: string): string {
	try {
		run();
	} catch (error) {
		return describeProblem(error, { words: WORDS, model, baseUrl: service().baseUrl }).message;
	}
	throw new Error('nothing failed');
}

const postJson = (path: string, body: object) =>
	send(`${service().baseUrl}/${path}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${keys.media}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});

const postParts = (path: string, parts: FormPart[]) => {
	const { contentType, body } = multipartBody(parts);
	return send(`${service().baseUrl}/${path}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${keys.media}`, 'Content-Type': contentType },
		body,
	});
};

const pngOf = (image: ReplyImage) => {
	if (!('bytes' in image)) throw new Error('a URL, not bytes');
	expect(image.type).toEqual({ mimeType: 'image/png', extension: 'png' });
	return readPng(image.bytes);
};

test('generations: the body is taken as sent, and each image read with its revised prompt', async () => {
	const body = generationBody(
		mediaRequest('generate', 'image-1', { n: 2, size: '512x256' }),
		'a fox',
	);
	const images = readImages(
		http(await postJson('images/generations', body)),
		endpointAt('images/generations'),
	);
	expect(images.map((image) => pngOf(image).text)).toEqual([
		{ prompt: 'a fox', image: '1 of 2', size: '512x256' },
		{ prompt: 'a fox', image: '2 of 2', size: '512x256' },
	]);
	expect(images[0].revisedPrompt).toBe('a fox, in flat colours');
});

test('a url answer is reported, and what it points at is read as an image once downloaded', async () => {
	const body = generationBody(
		mediaRequest('generate', 'image-1', { responseFormat: 'url' }),
		'a fox',
	);
	const [image] = readImages(
		http(await postJson('images/generations', body)),
		endpointAt('images/generations'),
	);
	if (!('url' in image)) throw new Error('bytes, not a URL');
	const download = await send(image.url);
	expect(downloadedType(Buffer.from(download.bytes), image.url).mimeType).toBe('image/png');
	expect(readPng(Buffer.from(download.bytes)).text.prompt).toBe('a fox');
});

test("edits: the engine's multipart carries the images in order, typed and named by their bytes, and the mask", async () => {
	const first = await postJson(
		'images/generations',
		generationBody(mediaRequest('generate', 'image-1', { size: '128x64' }), 'one'),
	);
	const png = Buffer.from(first.json.data[0].b64_json, 'base64');
	const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 1, 0, 2, 1, 1, 0x11, 0]);
	const images = [
		imageUpload({ bytes: jpeg, fileName: 'data', mimeType: 'application/octet-stream' }, 'a', 'b'),
		imageUpload({ bytes: png, fileName: 'first.png' }, 'a', 'b'),
	];
	const parts = editParts(
		mediaRequest('edit', 'image-1', { n: 1 }),
		'merge them',
		images,
		imageUpload({ bytes: png }, 'a', 'b'),
	);
	const reply = await postParts('images/edits', parts);
	expect(reply.status).toBe(200);
	const [edited] = readImages(http(reply), endpointAt('images/edits'));
	expect(pngOf(edited).text).toMatchObject({
		prompt: 'merge them',
		inputs: expect.stringMatching(
			/^image\[0\]: JPEG 2x1 sha256:\w+; image\[1\]: PNG 2x1 sha256:\w+$/,
		),
	});
	const [request] = (await service().requests()).filter(
		(entry) => entry.path === '/v1/images/edits',
	);
	expect(request.body).toEqual([
		{ name: 'n', value: '1' },
		{ name: 'model', value: 'image-1' },
		{ name: 'prompt', value: 'merge them' },
		expect.objectContaining({ name: 'image[]', filename: 'data.jpeg', type: 'image/jpeg' }),
		expect.objectContaining({ name: 'image[]', filename: 'first.png', type: 'image/png' }),
		expect.objectContaining({ name: 'mask', filename: 'image.png', type: 'image/png' }),
	]);
});

test('transcriptions: an item named "data" goes as data.wav, audio/wav; the text comes back; speech round trip', async () => {
	const wav = silentWav(0.5);
	const file = recordingUpload({
		bytes: wav,
		fileName: 'data',
		mimeType: 'application/octet-stream',
	});
	const parts = transcriptionParts(
		mediaRequest('transcribe', 'whisper-local', { responseFormat: 'verbose_json', language: 'en' }),
		file,
	);
	const heard = readTranscription(
		http(await postParts('audio/transcriptions', parts)),
		endpointAt('audio/transcriptions'),
	);
	expect(heard.text).toMatch(/^A wav recording of \d+ bytes/);
	expect(heard.details).toMatchObject({
		task: 'transcribe',
		language: 'english',
		segments: expect.any(Array),
	});

	const spoken = await postJson(
		'audio/speech',
		speechBody({ model: 'tts-local', fields: {} }, 'Round trip works', 'alloy'),
	);
	const speech = readSpeech(http(spoken), undefined);
	expect(speech.type).toEqual({ mimeType: 'audio/mpeg', extension: 'mp3' });
	const again = transcriptionParts(
		{ model: 'whisper-local', fields: {} },
		recordingUpload({ bytes: speech.bytes }),
	);
	expect(
		readTranscription(
			http(await postParts('audio/translations', again)),
			endpointAt('audio/translations'),
		).text,
	).toBe('Round trip works');
});

test('speech: audio/mp3 from the service is read as audio/mpeg; WAV as audio/wav', async () => {
	const around = { model: 'tts-local', fields: { x_local: { content_type: 'audio/mp3' } } };
	const mp3 = await postJson('audio/speech', speechBody(around, 'Hi', 'nova'));
	expect(mp3.headers.get('content-type')).toBe('audio/mp3');
	const read = readSpeech(http(mp3), 'mp3');
	expect(read.type).toEqual({ mimeType: 'audio/mpeg', extension: 'mp3' });
	const wav = await postJson(
		'audio/speech',
		speechBody(mediaRequest('speak', 'tts-local', { responseFormat: 'wav' }), 'Hi', 'nova'),
	);
	expect(readSpeech(http(wav), 'wav').type).toEqual({
		mimeType: 'audio/wav',
		extension: 'wav',
	});
});

test("each mode reads in the node's words", async () => {
	const read = (reply: HttpReply, model = 'image-1') =>
		readsAs(() => readImages(reply, endpointAt('images/generations')), model);
	const policy = await postJson('images/generations', {
		model: 'image-1',
		prompt: 'p',
		x_local: { content_policy: true },
	});
	expect(read(http(policy))).toBe("The provider's content policy refused the prompt");
	const none = await postJson('images/generations', {
		model: 'image-1',
		prompt: 'p',
		x_local: { no_images: true },
	});
	expect(read(http(none))).toBe('The image model "image-1" answered 200 without any image');
	const chatModel = await postJson('images/generations', { model: 'echo-1', prompt: 'p' });
	expect(read(http(chatModel), 'echo-1')).toBe(
		'Model "echo-1" cannot make images: it is not an image model',
	);
	const parts = transcriptionParts(
		{ model: 'echo-1', fields: {} },
		recordingUpload({ bytes: silentWav(0.2) }),
	);
	const refused = await postParts('audio/transcriptions', parts);
	expect(
		readsAs(() => readTranscription(http(refused), endpointAt('audio/transcriptions')), 'echo-1'),
	).toBe('Model "echo-1" cannot transcribe recordings: it is not a transcription model');
});

test('a recording over 25 MB is refused before sending; the service refuses one sent anyway (413)', async () => {
	const big = Buffer.concat([silentWav(0.1), Buffer.alloc(MAX_RECORDING_BYTES)]);
	const file = recordingUpload({ bytes: big, fileName: 'big.wav' });
	expect(
		readsAs(
			() => transcriptionParts({ model: 'whisper-local', fields: {} }, file),
			'whisper-local',
		),
	).toMatch(/^Input Binary Field: the recording big.wav is 25.0 MB, above the limit of 25.0 MB/);
	const sent = await postParts('audio/transcriptions', [
		{ name: 'model', value: 'whisper-local' },
		{ name: 'file', file },
	]);
	expect(
		readsAs(
			() => readTranscription(http(sent), endpointAt('audio/transcriptions')),
			'whisper-local',
		),
	).toBe('The service refused the recording as too large');
});

test('an image model in chat: message.images read as PNGs, in order', async () => {
	const reply = await chat(service(), keys.media, {
		model: 'image-1',
		messages: [{ role: 'user', content: 'two cats' }],
		modalities: ['image', 'text'],
		x_local: { images: 2 },
	});
	const images = messageImages(reply.json.choices[0].message);
	expect(images.map((image) => pngOf(image).text.image)).toEqual(['1 of 2', '2 of 2']);
});
