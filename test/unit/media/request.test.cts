/** The image and audio requests from the values a node read: bodies and parts, checked before sending. */
import { InputError } from '../../../engine/failures/errors';
import type { FormPart } from '../../../engine/media/multipart';
import { editParts } from '../../../engine/media/operations/edit';
import { generationBody } from '../../../engine/media/operations/generate';
import { speechBody } from '../../../engine/media/operations/speak';
import {
	checkRecordingSize as checkSize,
	imageUpload,
	MAX_RECORDING_BYTES,
	recordingUpload,
} from '../../../engine/media/request';
import { requiredText } from '../../../nodes/MediaChatCompletions/actions/item';
import { pngHeader } from '../../support/images.cts';
import { FIELD, mediaRequest, transcriptionParts } from '../../support/media-requests.cts';

const checkRecordingSize = (size: number, source: string) => checkSize(size, source, FIELD);
/** The node's check of a prompt, a text input and a voice: a non-empty text, else the field's error. */
const imagePrompt = (prompt: unknown) => requiredText(prompt, 'Prompt', 'Describe the change.');

const around = { model: 'image-1', fields: {} };
const png = pngHeader(2, 3);
const file = (fileName: string, bytes: Buffer = png, mimeType = 'image/png') => ({
	bytes,
	fileName,
	mimeType,
});
/** Parts as `name=value` for text and `name<fileName, type>` for files, in order. */
const shown = (parts: FormPart[]) =>
	parts.map((part) =>
		'file' in part
			? `${part.name}<${part.file.fileName}, ${part.file.mimeType}>`
			: `${part.name}=${part.value}`,
	);

/** The field and message of the InputError `run` throws. */
function refusal(run: () => unknown): { field: string; message: string; fix: string } {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		const { field, message, fix } = error as InputError;
		return { field, message, fix };
	}
	throw new Error('nothing was refused');
}

describe('generations', () => {
	test('{model, prompt, n, response_format} with b64_json and n 1 unless chosen; size and quality only when set', () => {
		expect(generationBody(mediaRequest('generate', 'image-1', {}), 'a fox')).toEqual({
			model: 'image-1',
			prompt: 'a fox',
			n: 1,
			response_format: 'b64_json',
		});
		const request = mediaRequest('generate', 'flux-2', {
			n: '3',
			size: '1024x1536',
			quality: 'high',
			responseFormat: 'url',
			extraBody: { seed: 7 },
		});
		expect(generationBody(request, 'a fox')).toEqual({
			seed: 7,
			model: 'flux-2',
			prompt: 'a fox',
			n: 3,
			size: '1024x1536',
			quality: 'high',
			response_format: 'url',
		});
	});

	test.each([
		['an empty prompt', '  ', 'Prompt', 'Prompt: is empty'],
		['a prompt that is no text', 3, 'Prompt', 'Prompt: must be text, got 3'],
	])('refuses %s before sending', (_name, prompt, field, message) => {
		const refused = refusal(() => imagePrompt(prompt));
		expect(refused.field).toBe(field);
		expect(refused.message).toContain(message);
	});

	test.each([
		['n 0', { n: 0 }, 'Options > Number of Images', 'must be a whole number from 1 to 10, got 0'],
		['n 2.5', { n: 2.5 }, 'Options > Number of Images', 'got 2.5'],
		[
			'a response format of no kind',
			{ responseFormat: 'png' },
			'Options > Response Format',
			'has the unknown value "png"',
		],
		['a size that is no text', { size: 3 }, 'Options > Size', 'must be text, got 3'],
	])('refuses %s before sending', (_name, options, field, message) => {
		const refused = refusal(() => mediaRequest('generate', 'image-1', options));
		expect(refused.field).toBe(field);
		expect(refused.message).toContain(message);
	});

	test('Put Output in Field is data unless set; it is no field of the request', () => {
		expect(mediaRequest('generate', 'image-1', {}).output).toBe('data');
		const request = mediaRequest('generate', 'image-1', { binaryPropertyOutput: 'picture' });
		expect(request.output).toBe('picture');
		expect(request.fields).toEqual({});
	});
});

describe('edits', () => {
	test('one image is `image`; several are `image[]` in the order given, then the mask; n and size when set', () => {
		expect(shown(editParts(around, 'add a hat', [file('a.png')]))).toEqual([
			'model=image-1',
			'prompt=add a hat',
			'image<a.png, image/png>',
		]);
		const request = mediaRequest('edit', 'image-1', {
			extraBody: { x_local: { content_policy: true }, quality: 'low' },
			n: 2,
			size: '512x512',
			mask: 'm',
		});
		expect(request.mask).toBe('m');
		const parts = editParts(
			request,
			'merge',
			[file('b.png'), file('a.jpg', png, 'image/jpeg')],
			file('m.png'),
		);
		expect(shown(parts)).toEqual([
			'x_local={"content_policy":true}',
			'quality=low',
			'n=2',
			'size=512x512',
			'model=image-1',
			'prompt=merge',
			'image[]<b.png, image/png>',
			'image[]<a.jpg, image/jpeg>',
			'mask<m.png, image/png>',
		]);
	});

	test('refuses an empty prompt', () => {
		expect(refusal(() => imagePrompt(''))).toMatchObject({
			field: 'Prompt',
			fix: expect.stringContaining('Describe the change'),
		});
	});
});

describe('transcriptions and translations', () => {
	const recording = { bytes: Buffer.from('ID3'), fileName: 'talk.mp3', mimeType: 'audio/mpeg' };

	test('file, model and the options that are set, numbers as text', () => {
		expect(shown(transcriptionParts({ model: 'whisper-1', fields: {} }, recording))).toEqual([
			'model=whisper-1',
			'file<talk.mp3, audio/mpeg>',
		]);
		const request = mediaRequest('transcribe', 'whisper-1', {
			language: 'de',
			prompt: 'Names: Ada.',
			responseFormat: 'verbose_json',
			temperature: 0,
		});
		expect(shown(transcriptionParts(request, recording))).toEqual([
			'language=de',
			'prompt=Names: Ada.',
			'response_format=verbose_json',
			'temperature=0',
			'model=whisper-1',
			'file<talk.mp3, audio/mpeg>',
		]);
	});

	test('Extra Body may not set what the node sets; its other fields go as text', () => {
		const refused = refusal(() =>
			mediaRequest('transcribe', 'whisper-1', { extraBody: { language: 'en' } }),
		);
		expect(refused).toMatchObject({
			field: 'Extra Body',
			message: 'Extra Body: sets "language", which Options > Language sets',
		});
		expect(
			mediaRequest('translate', 'whisper-1', { extraBody: { language: 'en' } }).fields,
		).toEqual({ language: 'en' });
		expect(
			refusal(() => mediaRequest('edit', 'image-1', { extraBody: { 'image[]': 'x' } })).message,
		).toContain('which the Input Binary Field sets');
	});

	test('temperature from 0 to 1', () => {
		const refused = refusal(() => mediaRequest('transcribe', 'whisper-1', { temperature: 1.5 }));
		expect(refused).toMatchObject({
			field: 'Options > Temperature',
			message: 'Options > Temperature: must be from 0 to 1, got 1.5',
		});
	});

	test('a recording over 25 MB is refused before sending, with the limit', () => {
		expect(() => checkRecordingSize(MAX_RECORDING_BYTES, 'binary property "data"')).not.toThrow();
		const refused = refusal(() =>
			checkRecordingSize(MAX_RECORDING_BYTES + 1, 'binary property "data" (talk.wav)'),
		);
		expect(refused).toEqual({
			field: 'Input Binary Field',
			message:
				'Input Binary Field: binary property "data" (talk.wav) is 25.0 MB, above the limit of 25.0 MB a transcription service takes',
			fix: expect.stringMatching(/^Send a shorter recording/),
		});
		const big = {
			bytes: Buffer.alloc(MAX_RECORDING_BYTES + 1),
			fileName: 'big.wav',
			mimeType: 'audio/wav',
		};
		expect(refusal(() => transcriptionParts(around, big)).message).toContain(
			'the recording big.wav is',
		);
	});
});

describe('speech', () => {
	test('{model, input, voice} and response_format and speed when set', () => {
		expect(speechBody({ model: 'tts-1', fields: {} }, 'Hello', 'af_heart')).toEqual({
			model: 'tts-1',
			input: 'Hello',
			voice: 'af_heart',
		});
		const request = mediaRequest('speak', 'tts-1', { responseFormat: 'wav', speed: '1.5' });
		expect(speechBody(request, 'Hello', 'nova')).toEqual({
			model: 'tts-1',
			input: 'Hello',
			voice: 'nova',
			response_format: 'wav',
			speed: 1.5,
		});
	});

	test.each([
		['no input', '', 'nova', 'Text Input'],
		['no voice', 'Hi', undefined, 'Voice'],
	])('refuses %s', (_name, input, voice, field) => {
		expect(
			refusal(() => {
				requiredText(input, 'Text Input', '');
				requiredText(voice, 'Voice', '');
			}).field,
		).toBe(field);
	});

	test('refuses speed 5', () => {
		expect(refusal(() => mediaRequest('speak', 'tts-1', { speed: 5 })).field).toBe(
			'Options > Speed',
		);
	});
});

describe('uploads named and typed by their bytes', () => {
	test('an image keeps its name with the extension of its bytes, and their type', () => {
		expect(
			imageUpload({ bytes: png, fileName: 'data', mimeType: 'application/octet-stream' }, 'x', 'f'),
		).toEqual({
			bytes: png,
			fileName: 'data.png',
			mimeType: 'image/png',
		});
		expect(imageUpload({ bytes: png, fileName: 'photo.jpg' }, 'x', 'f').fileName).toBe('photo.png');
		expect(imageUpload({ bytes: png }, 'x', 'f').fileName).toBe('image.png');
		const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
		expect(imageUpload({ bytes: jpeg, fileName: 'photo.JPG' }, 'x', 'f')).toMatchObject({
			fileName: 'photo.JPG',
			mimeType: 'image/jpeg',
		});
		expect(imageUpload({ bytes: jpeg, fileName: 'scan' }, 'x', 'f').fileName).toBe('scan.jpeg');
	});

	test('bytes that are no image are refused, named', () => {
		const refused = refusal(() =>
			imageUpload(
				{ bytes: Buffer.from('%PDF-1.7') },
				'binary property "doc"',
				'Input Binary Field',
			),
		);
		expect(refused.message).toBe(
			'Input Binary Field: binary property "doc" is not a PNG, JPEG or WebP image (checked the bytes, not only the name)',
		);
	});

	test('a GIF is refused, named, with the fix to convert it to PNG', () => {
		const refused = refusal(() =>
			imageUpload(
				{ bytes: Buffer.from('GIF89a\x01\x00\x01\x00'), fileName: 'anim.png' },
				'binary property "data" (anim.png)',
				'Input Binary Field',
			),
		);
		expect(refused.message).toBe(
			'Input Binary Field: binary property "data" (anim.png) is a GIF image, which image edit services refuse: they take PNG, JPEG and WebP (checked the bytes, not only the name)',
		);
		expect(refused.fix).toMatch(/convert it to PNG first \(e\.g\. with the Edit Image node/);
	});

	test('a recording gets the extension and type of its bytes', () => {
		const mp3 = Buffer.from([0xff, 0xfb, 0x90, 0xc4]);
		expect(
			recordingUpload({ bytes: mp3, fileName: 'data', mimeType: 'audio/mp3' }, 'x', FIELD),
		).toEqual({
			bytes: mp3,
			fileName: 'data.mp3',
			mimeType: 'audio/mpeg',
		});
		expect(recordingUpload({ bytes: mp3 }, 'x', FIELD).fileName).toBe('recording.mp3');
		expect(recordingUpload({ bytes: mp3, fileName: 'call.mpga' }, 'x', FIELD).fileName).toBe(
			'call.mpga',
		);
		const opus = Buffer.concat([
			Buffer.from('OggS'),
			Buffer.alloc(22),
			Buffer.from([1, 8]),
			Buffer.from('OpusHead'),
		]);
		expect(recordingUpload({ bytes: opus, fileName: 'voice note' }, 'x', FIELD)).toMatchObject({
			fileName: 'voice note.ogg',
			mimeType: 'audio/ogg',
		});
		expect(recordingUpload({ bytes: opus, fileName: 'note.opus' }, 'x', FIELD).fileName).toBe(
			'note.ogg',
		);
	});

	test('bytes of no recording kind are refused, named, whatever the name says: a text saved as talk.wav', () => {
		const refused = refusal(() =>
			recordingUpload(
				{
					bytes: Buffer.from('When does the garden open?\n'),
					fileName: 'talk.wav',
					mimeType: 'audio/wav',
				},
				'binary property "data" (talk.wav)',
				FIELD,
			),
		);
		expect(refused.message).toBe(
			'Input Binary Field: binary property "data" (talk.wav) is not audio: its bytes are no MP3, WAV, Ogg, FLAC, AAC, M4A, MP4 or WebM recording (checked the bytes, not only the name)',
		);
		expect(refused.fix).toMatch(/^Pass the recording itself/);
	});
});
