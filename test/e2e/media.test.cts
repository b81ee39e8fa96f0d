/**
 * The Chat Completions Media node in a real n8n with the packed package installed as n8n installs it, behind
 * Webhook triggers: the two examples, images generated then edited (the edit uploads the generated files as n8n stored them),
 * speech made, transcribed and answered by the Chat Completion node, and a chat model asked for an image.
 */
import { randomUUID } from 'node:crypto';

import { localCredential, localMediaCredential } from '../../dev/n8n/examples.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { chatNode, exampleBehindWebhook, webhookNode } from '../../dev/n8n/workflows.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const MEDIA_TYPE = 'n8n-nodes-chat-completions.mediaChatCompletions';

let credential: ReturnType<typeof localCredential>;

/** A Chat Completions Media node named `name` with `parameters` (Resource, Operation, the operation's fields). */
function mediaNode(name: string, x: number, parameters: Record<string, unknown>): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: MEDIA_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials: { chatCompletionsApi: { id: credential.id, name: credential.name } },
	};
}

const model = (value: string) => ({ __rl: true, mode: 'id', value });

/** Webhook (answering with every item of the last node) -> `nodes`, one after the other. */
function chain(path: string, nodes: WorkflowNode[]): WorkflowToImport {
	const webhook = webhookNode(path, 'lastNode', { allEntries: true });
	const all = [webhook, ...nodes];
	const connections = Object.fromEntries(
		all
			.slice(0, -1)
			.map((node, at) => [
				node.name,
				{ main: [[{ node: all[at + 1].name, type: 'main' as const, index: 0 }]] },
			]),
	);
	return {
		id: `e2e-${path}`,
		name: `Media: ${path}`,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

const n8n = useRealN8n(() => {
	credential = localCredential(keys.media, service().baseUrl);
	return {
		credentials: [credential, localMediaCredential(keys.media, service().baseUrl)],
		workflows: [
			...['generate-and-edit-image', 'transcribe-and-answer'].map((name) =>
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
		['image', 'image_1.png', 'image/png'],
		['image', 'image_2.png', 'image/png'],
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
		expect.objectContaining({ name: 'file', filename: 'speech.mp3', type: 'audio/mpeg' }),
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
