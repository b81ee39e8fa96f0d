/**
 * The Chat Completions Media node in a real n8n with the packed package installed as n8n installs it, behind
 * Webhook triggers: the two examples, images generated then edited (the edit uploads the generated files as n8n stored them),
 * speech made, transcribed and answered by the Chat Completion node, and a chat model asked for an image; the
 * images a reply gives by URL (another host without the key, a 503 retried, a 404 in words); the
 * Account node's Get Balance and the credential test's balance; the package's node descriptions as n8n serves them to
 * the editor and its AI workflow builder.
 */
import { randomUUID } from 'node:crypto';

import {
	localCredential,
	localMediaCredential,
	localVideoCredential,
} from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { chatNode, exampleBehindWebhook } from '../../dev/n8n/workflows.cts';
import { keys, useLocalService } from '../support/service.cts';
import { chain, download, mediaNode as credentialMediaNode, model } from './media-workflows.cts';

const service = useLocalService();

const ACCOUNT_TYPE = 'n8n-nodes-chat-completions.accountChatCompletions';

let credential: ReturnType<typeof localCredential>;
const badKey = { id: 'media-bad-key', name: 'Wrong key', type: 'chatCompletionsApi' };
/** A key whose service tells its balance as OpenRouter does (the local service's `x-local-balance` header). */
const balanceKey = {
	id: 'media-balance-key',
	name: 'Key with a balance',
	type: 'chatCompletionsApi',
};
const balanceData = () => ({
	apiKey: keys.media,
	baseUrl: service().baseUrl,
	extraHeaders: JSON.stringify({ 'x-local-balance': 'openrouter' }),
});

/** A Media node on the file's credential (`credential`, set once n8n's set-up runs). */
const mediaNode = (name: string, x: number, parameters: Record<string, unknown>) =>
	credentialMediaNode(name, x, credential, parameters);

const n8n = useRealN8n(() => {
	credential = localCredential(keys.media, service().baseUrl);
	return {
		// The video example writes its file to /tmp; n8n lets nodes write only in ~/.n8n-files by default.
		env: { N8N_RESTRICT_FILE_ACCESS_TO: '/tmp' },
		credentials: [
			credential,
			localMediaCredential(keys.media, service().baseUrl),
			localVideoCredential(keys['video-openai'], service().baseUrl),
			{ ...badKey, data: { apiKey: 'sk-example-wrong-media-key', baseUrl: service().baseUrl } },
			{ ...balanceKey, data: balanceData() },
		],
		workflows: [
			...['generate-and-edit-image', 'transcribe-and-answer', 'generate-video'].map((name) =>
				exampleBehindWebhook(name, service().origin),
			),
			chain('media-generate-edit', [
				mediaNode('Generate', -220, {
					resource: 'image',
					operation: 'generate',
					model: model('image-1'),
					prompt: '={{ $json.body.prompt }}',
					options: { n: 2 },
				}),
				mediaNode('Edit', 0, {
					resource: 'image',
					operation: 'edit',
					model: model('image-1'),
					prompt: 'add a red hat',
					binaryPropertyName: 'data',
				}),
			]),
			chain('media-speak-transcribe-answer', [
				mediaNode('Speak', -220, {
					resource: 'audio',
					operation: 'generate',
					model: model('tts-local'),
					input: '={{ $json.body.text }}',
					voice: 'nova',
				}),
				mediaNode('Transcribe', 0, {
					resource: 'audio',
					operation: 'transcribe',
					model: model('whisper-local'),
					binaryPropertyName: 'data',
				}),
				{
					...chatNode({ credential, model: 'echo-1', prompt: '={{ $json.text }}' }),
					position: [220, 0],
				},
			]),
			chain('media-translate', [
				download(-220, service().origin),
				mediaNode('Translate', 0, {
					resource: 'audio',
					operation: 'translate',
					model: model('whisper-local'),
					binaryPropertyName: 'data',
				}),
			]),
			chain('media-chat-images', [
				{
					...chatNode({
						credential,
						model: 'image-1',
						prompt: '={{ $json.body.prompt }}',
						options: { outputModalities: 'image,text', extraBody: '{"x_local": {"images": 2}}' },
					}),
					position: [0, 0],
				},
			]),
			chain(
				'media-failures',
				[
					{
						...mediaNode('Generate', 0, {
							resource: 'image',
							operation: 'generate',
							model: model('image-1'),
							prompt: '={{ $json.prompt }}',
							options: { extraBody: '={{ JSON.stringify($json.extra) }}' },
						}),
						onError: 'continueRegularOutput',
					},
				],
				{ splitBody: true },
			),
			chain(
				'media-url-images',
				[
					{
						...mediaNode('Generate', 0, {
							resource: 'image',
							operation: 'generate',
							model: model('image-1'),
							prompt: '={{ $json.prompt }}',
							options: {
								responseFormat: 'url',
								extraBody: '={{ JSON.stringify($json.extra) }}',
							},
						}),
						onError: 'continueRegularOutput',
					},
				],
				{ splitBody: true },
			),
			chain('media-wrong-key', [
				{
					...mediaNode('Generate', 0, {
						resource: 'image',
						operation: 'generate',
						model: model('image-1'),
						prompt: 'a fox',
					}),
					credentials: { chatCompletionsApi: { id: badKey.id, name: badKey.name } },
					onError: 'continueRegularOutput',
				},
			]),
			chain('media-balance', [
				{
					...mediaNode('Balance', 0, { operation: 'getBalance' }),
					type: ACCOUNT_TYPE,
					credentials: { chatCompletionsApi: { id: balanceKey.id, name: balanceKey.name } },
				},
			]),
			chain('media-chat-model', [
				{
					...mediaNode('Generate', 0, {
						resource: 'image',
						operation: 'generate',
						model: model('echo-1'),
						prompt: 'a fox',
					}),
					onError: 'continueRegularOutput',
				},
			]),
		],
	};
});

const answer = async (path: string, body?: unknown) =>
	(await n8n().answer(path, body)) as unknown as Array<Record<string, unknown>>;

test('generated images are edited in the next node: one item per image, each edit uploads its own file', async () => {
	const items = await answer('media-generate-edit', { prompt: 'a fox' });
	expect(items).toEqual([
		{ model: 'image-1', revised_prompt: 'add a red hat, in flat colours' },
		{ model: 'image-1', revised_prompt: 'add a red hat, in flat colours' },
	]);
	const requests = await service().requests();
	expect(requests.map((request) => request.path)).toEqual([
		'/v1/images/generations',
		'/v1/images/edits',
		'/v1/images/edits',
	]);
	expect(requests[0].body).toEqual({
		n: 2,
		response_format: 'b64_json',
		model: 'image-1',
		prompt: 'a fox',
	});
	const uploads = requests
		.slice(1)
		.map(
			(request) => (request.body as Array<{ name: string; filename?: string; type?: string }>)[2],
		);
	expect(uploads.map(({ name, filename, type }) => [name, filename, type]).sort()).toEqual([
		['image', 'image_1_1.png', 'image/png'],
		['image', 'image_1_2.png', 'image/png'],
	]);
});

test('speech made by one node is transcribed by the next and answered by Chat Completion', async () => {
	const [reply] = await answer('media-speak-transcribe-answer', {
		text: 'Your parcel arrives on Friday',
	});
	expect(reply.content).toBe('Your parcel arrives on Friday');
	const transcription = (await service().requests()).find(
		(request) => request.path === '/v1/audio/transcriptions',
	);
	expect(transcription?.body).toEqual([
		{ name: 'model', value: 'whisper-local' },
		expect.objectContaining({ name: 'file', filename: 'speech_1.mp3', type: 'audio/mpeg' }),
	]);
});

test('a chat model asked for an image: the error item names the model and what it cannot do', async () => {
	const [item] = await answer('media-chat-model');
	expect(item.error).toMatch(/Model "echo-1" cannot make images/);
	expect(JSON.stringify(item)).not.toContain(keys.media);
});

describe('the examples, each behind a Webhook trigger', () => {
	test('generate an image, then edit it', async () => {
		const reply = await n8n().answer('generate-and-edit-image');
		expect(reply).toEqual({
			model: 'image-1',
			revised_prompt: 'Add a red boat in the bay, in flat colours',
		});
	});

	test('generate a video, written to disk', async () => {
		const reply = await n8n().answer('generate-video');
		expect(reply).toMatchObject({ status: 'completed', model: 'video-1', seconds: '4' });
		const { submits, jobs } = await service().videoJobs();
		expect(submits).toBe(1);
		expect(jobs[0]).toMatchObject({ id: reply.id, downloads: 1 });
	});

	test('transcribe a recording (downloaded by an HTTP Request node), then answer it', async () => {
		const reply = await n8n().answer('transcribe-and-answer');
		expect(reply.content).toBe('When does the office garage open?');
		const upload = (await service().requests()).find(
			(request) => request.path === '/v1/audio/transcriptions',
		);
		expect(upload?.body).toEqual([
			{ name: 'model', value: 'whisper-local' },
			expect.objectContaining({ name: 'file', filename: 'question.wav', type: 'audio/wav' }),
		]);
	});
});

test('Translate a Recording downloaded by an HTTP Request node', async () => {
	const [item] = await answer('media-translate');
	expect(item.text).toBe('When does the office garage open?');
	expect((await service().requests()).map((request) => request.path)).toEqual([
		'/v1/audio/translations',
	]);
});

test("Chat Completion with Output Modalities: an image model's images as binary data, named in the JSON", async () => {
	const [item] = await answer('media-chat-images', { prompt: 'a fox' });
	expect(item.content).toBe('Here are 2 images: a fox');
	expect(item.images).toEqual([
		{ binary: 'image_1', mimeType: 'image/png' },
		{ binary: 'image_2', mimeType: 'image/png' },
	]);
	expect(JSON.stringify(item)).not.toContain('base64');
});

test('each failure in its words under Continue, in its place; a 429 and a 500 are waited out and retried', async () => {
	const fail = (status: number, id: string) => ({
		x_local: {
			fail_first: { id, count: 1, status, ...(status === 429 ? { retry_after: '1' } : {}) },
		},
	});
	const items = await answer('media-failures', {
		items: [
			{ prompt: 'a fox', extra: fail(429, 'e2e-media-429') },
			{ prompt: 'a hat', extra: { x_local: { content_policy: true } } },
			{ prompt: 'a cat', extra: { x_local: { no_images: true } } },
			{ prompt: 'a dog', extra: fail(500, 'e2e-media-500') },
		],
	});
	expect(items.map((item) => item.error ?? item.revised_prompt)).toEqual([
		'a fox, in flat colours',
		expect.stringMatching(/^The provider's content policy refused the prompt/),
		expect.stringMatching(/answered 200 without any image/),
		'a dog, in flat colours',
	]);
	const generations = (await service().requests()).filter(
		(request) => request.path === '/v1/images/generations',
	);
	expect(generations).toHaveLength(6);
});

test("URL images in n8n: another host's without the key, a 503 retried, a 404 in words naming the URL without its query", async () => {
	const id = `e2e-url-${randomUUID()}`;
	const items = await answer('media-url-images', {
		items: [
			{ prompt: 'a fox', extra: { x_local: { other_origin: true } } },
			{
				prompt: 'a hat',
				extra: { x_local: { url_path: `/__images/large/3000000.png?fail_first=1&id=${id}` } },
			},
			{ prompt: 'a cat', extra: { x_local: { url_path: '/__images/gone.png?sig=e2e-s3cr3t' } } },
		],
	});
	expect(items.map((item) => item.error ?? item.revised_prompt)).toEqual([
		'a fox, in flat colours',
		'a hat, in flat colours',
		`The file the service answered with is not at its URL: GET ${service().origin}/__images/gone.png answered 404 (item 2)`,
	]);
	expect(JSON.stringify(items)).not.toContain('Request failed with status code');
	const downloads = (await service().requests()).filter((request) =>
		request.path.startsWith('/__images/'),
	);
	const other = downloads.find((request) => request.headers.host.startsWith('localhost'));
	expect(other?.headers.authorization).toBeUndefined();
	expect(downloads.filter((request) => request.path.includes(id))).toHaveLength(2);
	expect(downloads.find((request) => request.path.includes('gone'))?.headers.authorization).toBe(
		`Bearer ${keys.media}`,
	);
});

test('a key the service refuses: the key in the words, never the key itself', async () => {
	const [item] = await answer('media-wrong-key');
	expect(String(item.error)).toMatch(/API key/);
	expect(JSON.stringify(item)).not.toContain('sk-example-wrong-media-key');
});

test("every node of the package reaches n8n's editor and AI builder with its builderHint", async () => {
	const described = await (
		await N8nRest.login(n8n().url, OWNER)
	).nodeTypes<{
		name: string;
		outputs: unknown;
		builderHint?: { searchHint?: string; relatedNodes?: Array<{ nodeType: string }> };
	}>();
	const ours = described.filter((node) => node.name.startsWith('n8n-nodes-chat-completions.'));
	expect([...new Set(ours.map((node) => node.name))].sort()).toEqual(
		// n8n makes a tool of each node usable as a tool (`...Tool`), from the same description.
		[
			'accountChatCompletions',
			'accountChatCompletionsTool',
			'chatCompletion',
			'chatCompletionTool',
			'embeddingsChatCompletions',
			'lmChatCompletions',
			'mediaChatCompletions',
			'mediaChatCompletionsTool',
			'rerankerChatCompletions',
		].map((name) => `n8n-nodes-chat-completions.${name}`),
	);
	for (const node of ours) {
		expect(node.builderHint?.searchHint?.length).toBeGreaterThan(80);
		for (const related of node.builderHint?.relatedNodes ?? []) {
			expect(described.map((other) => other.name)).toContain(related.nodeType);
		}
	}
	// The node whose outputs an expression computes says what they are.
	const chat = ours.find((node) => node.name.endsWith('.chatCompletion'))!;
	expect(typeof chat.outputs).toBe('string');
	expect(chat.builderHint?.searchHint).toMatch(/Tool Calls/);
});

test("the Account node's Get Balance, and the credential test saying the balance, in n8n's own words", async () => {
	expect(await answer('media-balance')).toEqual([
		{ remaining: 4.2, used: 5.8, limit: 10, currency: 'USD', source: 'GET /key' },
	]);
	const rest = await N8nRest.login(n8n().url, OWNER);
	const stored = { ...balanceKey, id: n8n().credentialId(balanceKey.id) };
	expect(await rest.testCredential({ ...stored, data: balanceData() })).toEqual({
		status: 'OK',
		message: 'Connection successful: this key may use 5 models; balance $4.20 left.',
	});
	expect(
		await rest.testCredential({
			...stored,
			data: { apiKey: keys.media, baseUrl: service().baseUrl },
		}),
	).toEqual({ status: 'OK', message: 'Connection successful: this key may use 5 models.' });
});
