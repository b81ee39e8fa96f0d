/**
 * The Chat Completions Media node through n8n's engine against the local service: each operation's request as
 * it arrives, its output items (binary data named and typed by its bytes, paired with their input items, no
 * base64 in the JSON), and failures that name the field, the item and the fix.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { IBinaryData, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { binaryBytes, createEngine } from '../../dev/n8n-core/harness.cts';
import type { NodeSettings } from '../../dev/n8n-core/harness.cts';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { modelFromList } from '../support/chat-node.cts';
import { pngHeader } from '../support/images.cts';
import { loggedFile, readMp3, readPng, silentWav } from '../support/media.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const TYPE = 'n8n-nodes-chat-completions.mediaChatCompletions';

function engine(apiKey = keys.media, extraHeaders?: string) {
	return createEngine({
		nodeTypes: { [TYPE]: new MediaChatCompletions() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: {
			chatCompletionsApi: {
				apiKey,
				baseUrl: service().baseUrl,
				...(extraHeaders === undefined ? {} : { extraHeaders }),
			},
		},
	});
}

/** Runs the node on `items` with `parameters` (Resource, Operation, Model and the operation's fields). */
async function run(
	parameters: INodeParameters,
	items: INodeExecutionData[] = [{ json: {} }],
	{
		apiKey,
		onError,
		extraHeaders,
	}: { apiKey?: string; onError?: NodeSettings['onError']; extraHeaders?: string } = {},
) {
	return await engine(apiKey, extraHeaders).runNode({
		type: TYPE,
		parameters,
		items,
		...(onError === undefined ? {} : { settings: { onError } }),
	});
}

const withFile = (bytes: Buffer, mimeType: string, fileName: string, name = 'data') => ({
	json: {},
	binary: { [name]: { data: bytes.toString('base64'), mimeType, fileName } },
});

/** The parameters of Transcribe or Translate a Recording with whisper-local on binary field `data`; `more` adds or overrides. */
const recording = (operation: string, more: INodeParameters = {}): INodeParameters => ({
	resource: 'audio',
	operation,
	model: modelFromList('whisper-local'),
	binaryPropertyName: 'data',
	...more,
});

/** The image parameters; `more` adds or overrides. */
const image = (operation: string, more: INodeParameters = {}): INodeParameters => ({
	resource: 'image',
	operation,
	model: modelFromList('image-1'),
	prompt: '={{ $json.prompt }}',
	...more,
});

describe('Generate an Image', () => {
	test('one item per image, paired and in order, typed by their bytes, the revised prompt kept and no base64', async () => {
		const { outputs, error } = await run(image('generate', { options: { n: 2 } }), [
			{ json: { prompt: 'a fox' } },
			{ json: { prompt: 'a hat' } },
		]);
		expect(error).toBeUndefined();
		const items = outputs[0];
		expect(items.map((item) => [item.pairedItem, item.json.revised_prompt])).toEqual([
			[{ item: 0 }, 'a fox, in flat colours'],
			[{ item: 0 }, 'a fox, in flat colours'],
			[{ item: 1 }, 'a hat, in flat colours'],
			[{ item: 1 }, 'a hat, in flat colours'],
		]);
		for (const [at, item] of items.entries()) {
			const data = item.binary?.data as IBinaryData;
			expect(data).toMatchObject({
				mimeType: 'image/png',
				fileName: `image_${Math.floor(at / 2) + 1}_${(at % 2) + 1}.png`,
				fileExtension: 'png',
			});
			const png = readPng(await binaryBytes(data));
			expect(png.text).toMatchObject({ image: `${(at % 2) + 1} of 2`, size: '1024x1024' });
			expect(JSON.stringify(item.json)).not.toMatch(/iVBOR/);
		}
		const requests = await service().requests();
		expect(requests.map((request) => request.body)).toEqual([
			{ n: 2, response_format: 'b64_json', model: 'image-1', prompt: 'a fox' },
			{ n: 2, response_format: 'b64_json', model: 'image-1', prompt: 'a hat' },
		]);
	});

	test("each item's image gets a name of its own, so that Write Files to Disk keeps all", async () => {
		const { outputs, error } = await run(image('generate'), [
			{ json: { prompt: 'a fox' } },
			{ json: { prompt: 'a hat' } },
			{ json: { prompt: 'a boat' } },
		]);
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => (item.binary?.data as IBinaryData).fileName)).toEqual([
			'image_1_1.png',
			'image_2_1.png',
			'image_3_1.png',
		]);
	});

	test('images asked for and made that differ: every image kept, a hint says how many of how many', async () => {
		const fewer = await run(
			image('generate', {
				prompt: 'a fox',
				options: { n: 3, extraBody: '{"x_local": {"images": 1}}' },
			}),
		);
		expect(fewer.outputs[0]).toHaveLength(1);
		expect(fewer.hints.map((hint) => hint.message)).toEqual([
			'The image model "image-1" made 1 image of the 3 asked for (Options > Number of Images): some models make one image a request, whatever n says. To get 3, send 3 items of one image each, or choose a model that makes several.',
		]);
		const more = await run(
			image('generate', { prompt: 'a fox', options: { extraBody: '{"x_local": {"images": 3}}' } }),
		);
		expect(more.outputs[0]).toHaveLength(3);
		expect(more.hints.map((hint) => hint.message)).toEqual([
			'The image model "image-1" made 3 images where 1 was asked for (Options > Number of Images): each is an output item of its own.',
		]);
		const asked = await run(image('generate', { prompt: 'a fox', options: { n: 2 } }));
		expect(asked.hints).toEqual([]);
	});

	/** Generate an Image with Response Format URL (and the options given): its one item. */
	async function urlReply(options: Record<string, string>, extraHeaders?: string) {
		const { outputs, error } = await run(
			image('generate', { prompt: 'a fox', options: { responseFormat: 'url', ...options } }),
			undefined,
			{ extraHeaders },
		);
		expect(error).toBeUndefined();
		return outputs[0][0];
	}

	/** The downloads the service saw (the requests under /__images/). */
	const downloads = async () =>
		(await service().requests()).filter((request) => request.path.startsWith('/__images/'));

	const HEADERS = '{"X-Title": "Fox run", "X-Gateway-Token": "gw-s3cr3t-value-1234"}';

	test('a URL reply of another origin is downloaded without the key or secret Extra Headers, its URL kept; Put Output in Field names the field', async () => {
		const item = await urlReply(
			{ binaryPropertyOutput: 'picture', extraBody: '{"x_local": {"other_origin": true}}' },
			HEADERS,
		);
		expect(item.json.url).toMatch(/^http:\/\/localhost:\d+\/__images\/.+\.png$/);
		expect((item.binary?.picture as IBinaryData).mimeType).toBe('image/png');
		const [download] = await downloads();
		expect(download).toBeDefined();
		expect(download.headers.authorization).toBeUndefined();
		expect(download.headers['x-gateway-token']).toBeUndefined();
		expect(download.headers['x-title']).toBe('Fox run');
		expect(JSON.stringify(download)).not.toContain(keys.media);
		expect(JSON.stringify(download)).not.toContain('gw-s3cr3t');
	});

	test("a URL reply on the Base URL's origin is downloaded with the key and Extra Headers, as the service's own file", async () => {
		await urlReply({}, HEADERS);
		const [download] = await downloads();
		expect(new URL(service().baseUrl).origin).toBe(`http://${download.headers.host}`);
		expect(download.headers.authorization).toBe(`Bearer ${keys.media}`);
		expect(download.headers['x-gateway-token']).toBe('gw-s3cr3t-value-1234');
	});

	test('a download the storage answers 503 is retried (Max Retries), and counted as one request sent', async () => {
		const id = `retry-${Date.now()}`;
		const item = await urlReply({
			extraBody: JSON.stringify({
				x_local: { url_path: `/__images/large/2000.png?fail_first=1&id=${id}` },
			}),
		});
		expect(item.binary?.data).toMatchObject({ mimeType: 'image/png', fileName: 'image_1_1.png' });
		expect(await binaryBytes(item.binary?.data as IBinaryData)).toHaveLength(2000);
		const asked = `/__images/large/2000.png?fail_first=1&id=${id}`;
		expect((await downloads()).map((request) => request.path)).toEqual([asked, asked]);
	});

	test('a URL that answers 404 fails the item in words naming the URL without its query, with the fix', async () => {
		const { outputs } = await run(
			image('generate', {
				prompt: 'a fox',
				options: {
					responseFormat: 'url',
					extraBody: '{"x_local": {"url_path": "/__images/gone.png?X-Amz-Signature=s3cr3tsig"}}',
				},
			}),
			undefined,
			{ onError: 'continueRegularOutput' },
		);
		const { error } = outputs[0][0].json as { error: string; description?: string };
		const shown = JSON.stringify(outputs[0][0].json);
		expect(error).toBe(
			`The file the service answered with is not at its URL: GET ${service().origin}/__images/gone.png answered 404 (item 0)`,
		);
		expect(shown).toContain('run the item again for a new one');
		expect(shown).not.toContain('s3cr3tsig');
		expect(shown).not.toContain('Request failed with status code 404');
		expect(await downloads()).toHaveLength(1);
	});

	test('a large download goes as a stream into binary data: memory grows by far less than the file', async () => {
		const size = 48 * 1024 * 1024;
		// What is held, not what waits for the collector: each sample after a full collection.
		setFlagsFromString('--expose-gc');
		const collect = runInNewContext('gc') as () => void;
		const held = () => {
			collect();
			return process.memoryUsage().arrayBuffers;
		};
		const before = held();
		let peak = before;
		// The next sample 150 ms after the last one ended: on a busy machine a collection may take longer than that,
		// and samples on an interval would then leave the download no time to go on.
		let sampler: NodeJS.Timeout | undefined;
		const sample = () => {
			peak = Math.max(peak, held());
			sampler = setTimeout(sample, 150);
		};
		sampler = setTimeout(sample, 150);
		try {
			const item = await urlReply({
				extraBody: JSON.stringify({ x_local: { url_path: `/__images/large/${size}.png` } }),
			});
			expect(item.binary?.data).toMatchObject({ mimeType: 'image/png', bytes: size });
		} finally {
			clearTimeout(sampler);
		}
		// Read whole, the file is held at least once; as a stream, a part of it at a time.
		expect(peak - before).toBeLessThan(size / 2);
	}, 120_000);

	test('a URL reply in JPEG is typed by the bytes downloaded: image/jpeg with .jpeg', async () => {
		const item = await urlReply({ extraBody: '{"output_format": "jpeg"}' });
		expect(item.json.url).toMatch(/\/__images\/.+\.jpe?g$/);
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/jpeg',
			fileName: 'image_1_1.jpeg',
			fileExtension: 'jpeg',
		});
	});
});

describe('Edit an Image', () => {
	test('several images in the order named and a mask, as multipart; the edit comes back as an image', async () => {
		const first = pngHeader(8, 10);
		const second = pngHeader(4, 5);
		const item = {
			json: { prompt: 'merge them' },
			binary: {
				...withFile(first, 'image/png', 'a.png', 'front').binary,
				...withFile(second, 'application/octet-stream', 'data', 'back').binary,
				...withFile(pngHeader(4, 5), 'image/png', 'm.png', 'mask').binary,
			},
		};
		const { outputs, error } = await run(
			image('edit', { binaryPropertyName: 'back, front', options: { mask: 'mask' } }),
			[item],
		);
		expect(error).toBeUndefined();
		expect((outputs[0][0].binary?.data as IBinaryData).mimeType).toBe('image/png');
		const [request] = await service().requests();
		expect(request.path).toBe('/v1/images/edits');
		expect(request.body).toEqual([
			{ name: 'model', value: 'image-1' },
			{ name: 'prompt', value: 'merge them' },
			loggedFile('image[]', 'data.png', 'image/png', second),
			loggedFile('image[]', 'a.png', 'image/png', first),
			loggedFile('mask', 'm.png', 'image/png', pngHeader(4, 5)),
		]);
	});

	test('an Input Binary Field the item lacks names it and the fields it has, and the item fails alone', async () => {
		const { outputs } = await run(
			image('edit', { binaryPropertyName: 'photo' }),
			[
				{ ...withFile(pngHeader(4, 5), 'image/png', 'a.png'), json: { prompt: 'add a hat' } },
				{
					...withFile(pngHeader(4, 5), 'image/png', 'a.png', 'photo'),
					json: { prompt: 'add a hat' },
				},
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(outputs[0][0].json.error).toBe(
			'Input Binary Field: the item has no binary property "photo" (it has: data) (item 0)',
		);
		expect(outputs[0][1].binary?.data).toBeDefined();
		expect(outputs[0].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('Options > Mask naming a field the item lacks fails the item, naming the fields it has; nothing is sent', async () => {
		const { outputs } = await run(
			image('edit', { binaryPropertyName: 'data', options: { mask: 'mask' } }),
			[{ ...withFile(pngHeader(4, 5), 'image/png', 'a.png'), json: { prompt: 'add a hat' } }],
			{ onError: 'continueRegularOutput' },
		);
		expect(outputs[0][0].json.error).toBe(
			'Options > Mask: the item has no binary property "mask" (it has: data) (item 0)',
		);
		expect(await service().requests()).toEqual([]);
	});

	test('a GIF is refused before anything is sent, with the fix to convert it to PNG; the others go on', async () => {
		const gif = Buffer.from('GIF89a\x02\x00\x02\x00\x00\x00\x00;', 'latin1');
		const { outputs } = await run(
			image('edit'),
			[
				{ ...withFile(gif, 'image/png', 'anim.png'), json: { prompt: 'add a hat' } },
				{ ...withFile(pngHeader(4, 5), 'image/png', 'a.png'), json: { prompt: 'add a hat' } },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(outputs[0][0].json.error).toBe(
			'Input Binary Field: binary property "data" (anim.png) is a GIF image, which image edit services refuse: they take PNG, JPEG and WebP (checked the bytes, not only the name) (item 0)',
		);
		expect(outputs[0][1].binary?.data).toBeDefined();
		const requests = await service().requests();
		expect(requests).toHaveLength(1);
		expect(JSON.stringify(requests[0].body)).toContain('a.png');
	});

	test('an empty Input Binary Field fails the item before anything is sent', async () => {
		const { outputs } = await run(
			image('edit', { binaryPropertyName: ' , ' }),
			[{ ...withFile(pngHeader(4, 5), 'image/png', 'a.png'), json: { prompt: 'add a hat' } }],
			{ onError: 'continueRegularOutput' },
		);
		expect(outputs[0][0].json.error).toBe('Input Binary Field: is empty (item 0)');
		expect(await service().requests()).toEqual([]);
	});
});

describe('Transcribe and Translate a Recording', () => {
	const wav = silentWav(0.5);

	test('the recording goes as `file` with its extension; the text comes back, verbose_json with segments', async () => {
		const { outputs, error } = await run(
			recording('transcribe', { options: { language: 'en', responseFormat: 'verbose_json' } }),
			[withFile(wav, 'audio/x-wav', 'talk')],
		);
		expect(error).toBeUndefined();
		const { json } = outputs[0][0];
		expect(json.text).toMatch(/^A wav recording of \d+ bytes, sha256 [0-9a-f]{12}\.$/);
		expect(Array.isArray(json.segments)).toBe(true);
		const [request] = await service().requests();
		expect(request.body).toEqual([
			{ name: 'language', value: 'en' },
			{ name: 'response_format', value: 'verbose_json' },
			{ name: 'model', value: 'whisper-local' },
			loggedFile('file', 'talk.wav', 'audio/wav', wav),
		]);
	});

	test('Translate calls /audio/translations with the chosen model', async () => {
		const { outputs, error } = await run(recording('translate'), [
			withFile(wav, 'audio/wav', 'talk.wav'),
		]);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.text).toMatch(/^A wav recording/);
		expect((await service().requests())[0].path).toBe('/v1/audio/translations');
	});

	test('a transcript cut off in its JSON is an error item, never a text', async () => {
		const { outputs } = await run(
			recording('transcribe', {
				options: { extraBody: JSON.stringify({ x_local: { cut_at: 14 } }) },
			}),
			[withFile(wav, 'audio/wav', 'talk.wav')],
			{ onError: 'continueRegularOutput' },
		);
		const [item] = outputs[0];
		expect(item.json.text).toBeUndefined();
		expect(item.json.error).toBe(
			'The transcription model "whisper-local" answered 200 with a body that is not the JSON asked for (response_format json), perhaps cut off: {"text":"A wav (item 0)',
		);
	});

	test('a text file named talk.wav fails its item before sending: not audio, by its bytes; the others go on', async () => {
		const { outputs } = await run(
			recording('transcribe'),
			[
				withFile(Buffer.from('When does the garden open?\n'), 'audio/wav', 'talk.wav'),
				withFile(wav, 'audio/wav', 'short.wav'),
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(outputs[0][0].json.error).toBe(
			'Input Binary Field: binary property "data" (talk.wav) is not audio: its bytes are no MP3, WAV, Ogg, FLAC, AAC, M4A, MP4 or WebM recording (checked the bytes, not only the name) (item 0)',
		);
		expect(outputs[0][1].json.text).toMatch(/^A wav recording/);
		expect(await service().requests()).toHaveLength(1);
	});

	test('an Input Binary Field typed with spaces around the name finds the recording', async () => {
		const { outputs, error } = await run(
			recording('transcribe', { binaryPropertyName: ' data ' }),
			[withFile(wav, 'audio/wav', 'talk.wav')],
		);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.text).toMatch(/^A wav recording/);
	});
});

test('a recording over 25 MB fails its item before anything is sent, with the limit; the others go on', async () => {
	const big = Buffer.concat([silentWav(0.1), Buffer.alloc(25 * 1024 * 1024)]);
	const { outputs } = await run(
		recording('transcribe'),
		[withFile(big, 'audio/wav', 'long.wav'), withFile(silentWav(0.5), 'audio/wav', 'short.wav')],
		{ onError: 'continueRegularOutput' },
	);
	expect(outputs[0][0].json.error).toMatch(
		/^Input Binary Field: the recording long.wav is 25.0 MB, above the limit of 25.0 MB/,
	);
	expect(outputs[0][1].json.text).toMatch(/^A wav recording/);
	expect(await service().requests()).toHaveLength(1);
});

test('a recording whose stored size n8n gives is refused by that size; with Stop Workflow nothing is sent', async () => {
	const big = Buffer.concat([silentWav(0.1), Buffer.alloc(25 * 1024 * 1024)]);
	const stored = (bytes: Buffer, fileName: string) => {
		const item = withFile(bytes, 'audio/wav', fileName);
		return { ...item, binary: { data: { ...item.binary.data, bytes: bytes.length } } };
	};
	const { error } = await run(recording('transcribe'), [
		stored(silentWav(0.5), 'short.wav'),
		stored(big, 'long.wav'),
	]);
	expect(error?.message).toBe(
		'Input Binary Field: binary property "data" (long.wav) is 25.0 MB, above the limit of 25.0 MB a transcription service takes (item 1)',
	);
	expect(await service().requests()).toEqual([]);
});

describe('Generate Audio', () => {
	test('the audio is binary typed by its bytes: MP3 is audio/mpeg with .mp3', async () => {
		const { outputs, error } = await run({
			resource: 'audio',
			operation: 'generate',
			model: modelFromList('tts-local'),
			input: 'Your order has shipped',
			voice: 'nova',
		});
		expect(error).toBeUndefined();
		const [item] = outputs[0];
		const data = item.binary?.data as IBinaryData;
		expect(data).toMatchObject({
			mimeType: 'audio/mpeg',
			fileExtension: 'mp3',
			fileName: 'speech_1.mp3',
		});
		expect(readMp3(await binaryBytes(data)).tags).toMatchObject({
			TIT2: 'Your order has shipped',
			TPE1: 'nova',
		});
		expect(item.json).toEqual({ model: 'tts-local', voice: 'nova' });
		expect((await service().requests())[0].body).toEqual({
			model: 'tts-local',
			input: 'Your order has shipped',
			voice: 'nova',
		});
	});

	test("each item's speech gets a name of its own, so that Write Files to Disk keeps all", async () => {
		const { outputs, error } = await run(
			{
				resource: 'audio',
				operation: 'generate',
				model: modelFromList('tts-local'),
				input: '={{ $json.text }}',
				voice: 'nova',
			},
			[{ json: { text: 'One' } }, { json: { text: 'Two' } }, { json: { text: 'Three' } }],
		);
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => (item.binary?.data as IBinaryData).fileName)).toEqual([
			'speech_1.mp3',
			'speech_2.mp3',
			'speech_3.mp3',
		]);
	});

	test("a text over the voice's 4,096 characters: the service's refusal says to shorten or split it", async () => {
		const { error } = await run({
			resource: 'audio',
			operation: 'generate',
			model: modelFromList('tts-local'),
			input: 'a'.repeat(5000),
			voice: 'nova',
		});
		expect(error?.message).toBe('The service refused the text to speak as too long (item 0)');
		const description = (error as { description?: string } | undefined)?.description;
		expect(description).toMatch(/at most 4096 characters, got 5000/);
		expect(description).toMatch(/Shorten the text .* or split it into parts, one item each/);
		expect(description).not.toMatch(/Batch Size/);
	});

	test('PCM, whose bytes say nothing, is typed by the format asked when the service sends no audio type', async () => {
		const { outputs, error } = await run({
			resource: 'audio',
			operation: 'generate',
			model: modelFromList('tts-local'),
			input: 'Your order has shipped',
			voice: 'nova',
			options: {
				responseFormat: 'pcm',
				extraBody: JSON.stringify({ x_local: { content_type: 'application/octet-stream' } }),
			},
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].binary?.data).toMatchObject({
			mimeType: 'audio/pcm',
			fileExtension: 'pcm',
			fileName: 'speech_1.pcm',
		});
	});

	test.each(['audio/wav', 'application/octet-stream'])(
		'MP3 bytes stay audio/mpeg with .mp3 when the service sends %s',
		async (contentType) => {
			const { outputs, error } = await run({
				resource: 'audio',
				operation: 'generate',
				model: modelFromList('tts-local'),
				input: 'Your order has shipped',
				voice: 'nova',
				options: { extraBody: JSON.stringify({ x_local: { content_type: contentType } }) },
			});
			expect(error).toBeUndefined();
			expect(outputs[0][0].binary?.data).toMatchObject({
				mimeType: 'audio/mpeg',
				fileExtension: 'mp3',
				fileName: 'speech_1.mp3',
			});
		},
	);
});

describe('failures', () => {
	test('a chat model asked for an image: the model and what it cannot do, nothing retried', async () => {
		const { error } = await run(
			image('generate', { model: modelFromList('echo-1'), prompt: 'a fox' }),
		);
		expect(error?.message).toMatch(/echo-1/);
		expect(error?.message).toMatch(/make images/);
		expect(await service().requests()).toHaveLength(1);
	});

	test("the provider's content policy: reword the prompt", async () => {
		const { error } = await run(
			image('generate', {
				prompt: 'a fox',
				options: { extraBody: '{"x_local": {"content_policy": true}}' },
			}),
		);
		expect(error?.message).toMatch(/content policy/);
		expect((error as { description?: string } | undefined)?.description).toMatch(
			/Reword the prompt/,
		);
	});

	test('a 200 without images is an error, never an empty success', async () => {
		const { outputs, error } = await run(
			image('generate', {
				prompt: 'a fox',
				options: { extraBody: '{"x_local": {"no_images": true}}' },
			}),
		);
		expect(outputs).toEqual([]);
		expect(error?.message).toMatch(/without any image/);
	});

	test('a key the service refuses: the key, and never the key itself', async () => {
		const { error } = await run(image('generate', { prompt: 'a fox' }), undefined, {
			apiKey: 'sk-example-unknown-0123456789',
		});
		expect(String(error?.message)).toMatch(/API key/i);
		expect(JSON.stringify(error)).not.toContain('sk-example-unknown-0123456789');
	});

	test('Prompt and Text Input from an expression that finds nothing name the field it did not find', async () => {
		const { outputs } = await run(
			image('generate', { prompt: '={{ $json.caption }}' }),
			[{ json: {} }],
			{
				onError: 'continueRegularOutput',
			},
		);
		expect(outputs[0][0].json.error).toBe(
			'Prompt: is empty because its expression {{ $json.caption }} finds no field "caption" in the input item (item 0)',
		);
		const speech = await run(
			{
				resource: 'audio',
				operation: 'generate',
				model: modelFromList('tts-local'),
				input: '={{ $json.reply.text }}',
				voice: 'nova',
			},
			[{ json: { reply: {} } }],
			{ onError: 'continueRegularOutput' },
		);
		expect(speech.outputs[0][0].json.error).toBe(
			'Text Input: is empty because its expression {{ $json.reply.text }} finds no "text" in the input item\'s field "reply" (item 0)',
		);
		expect(await service().requests()).toEqual([]);
	});

	test('with Stop Workflow an empty prompt stops the node before anything is sent, naming the item', async () => {
		const { error } = await run(image('generate'), [
			{ json: { prompt: 'a fox' } },
			{ json: { prompt: '' } },
		]);
		expect(error?.message).toBe('Prompt: is empty (item 1)');
		expect(await service().requests()).toHaveLength(0);
	});

	test('with Stop Workflow two invalid items are named in one error, each with its problem; nothing is sent', async () => {
		const { error } = await run(image('generate'), [
			{ json: { prompt: '' } },
			{ json: { prompt: 'a fox' } },
			{ json: { prompt: '' } },
		]);
		expect(error?.message).toBe(
			'2 items are invalid, so nothing was sent: items 0, 2: Prompt: is empty',
		);
		expect((error as { description?: string } | undefined)?.description).toMatch(
			/^Items 0, 2: Prompt: is empty\. .* Fix them and run again, or set On Error to Continue to send the valid items\.$/,
		);
		expect(await service().requests()).toHaveLength(0);
	});

	test('with Stop Workflow the first failure stops the batch, and the error says what the stop did', async () => {
		const { error } = await run(
			image('generate', { options: { extraBody: '={{ JSON.stringify($json.extra) }}' } }),
			[
				{ json: { prompt: 'a fox', extra: { x_local: { content_policy: true } } } },
				{ json: { prompt: 'a hat', extra: { x_local: { slow_ms: 8000 } } } },
			],
		);
		expect(error?.message).toBe("The provider's content policy refused the prompt (item 0)");
		expect((error as { description?: string } | undefined)?.description).toMatch(
			/ The node stopped at this failure \(On Error: Stop Workflow\): 2 requests were sent, 1 of them still in flight and cancelled, and no other request started\.$/,
		);
	}, 20_000);

	test('a Base URL without a scheme fails the node (Stop Workflow) or every item (Continue), nothing sent', async () => {
		const baseUrl = service().baseUrl.replace(/^http:\/\//, '');
		const credentialEngine = createEngine({
			nodeTypes: { [TYPE]: new MediaChatCompletions() },
			credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
			credentials: { chatCompletionsApi: { apiKey: keys.media, baseUrl } },
		});
		const message = `The Base URL "${baseUrl}" is not an http:// or https:// address`;
		const node = (onError?: NodeSettings['onError']) =>
			credentialEngine.runNode({
				type: TYPE,
				parameters: image('generate'),
				items: [{ json: { prompt: 'a fox' } }, { json: { prompt: 'a hat' } }],
				...(onError === undefined ? {} : { settings: { onError } }),
			});
		expect((await node()).error?.message).toBe(message);
		const continued = await node('continueRegularOutput');
		expect(continued.outputs[0].map((item) => [item.pairedItem, item.json.error])).toEqual([
			[{ item: 0 }, `${message} (item 0)`],
			[{ item: 1 }, `${message} (item 1)`],
		]);
		expect(await service().requests()).toHaveLength(0);
	});

	test('a 5xx is retried; with Continue a failed item keeps its place', async () => {
		const { outputs } = await run(
			image('generate', { options: { extraBody: '={{ JSON.stringify($json.extra) }}' } }),
			[
				{
					json: {
						prompt: 'a fox',
						extra: { x_local: { fail_first: { id: 'media-5xx', count: 1, status: 500 } } },
					},
				},
				{ json: { prompt: 'a hat', extra: { x_local: { content_policy: true } } } },
				{ json: { prompt: 'a cat', extra: {} } },
			] as Array<{ json: IDataObject }>,
			{ onError: 'continueRegularOutput' },
		);
		expect(outputs[0].map((item) => [item.pairedItem, item.json.error === undefined])).toEqual([
			[{ item: 0 }, true],
			[{ item: 1 }, false],
			[{ item: 2 }, true],
		]);
	});
});
