/**
 * The packed package in a real n8n (`n8n start`), driven over HTTP: the example workflows behind Webhook
 * triggers, a PDF in binary data, the error output, and a streaming Webhook response.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { keys, useLocalService } from '../support/service.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { readStreamed } from './support/streamed-response.cts';
import { placeholderOf } from '../support/images.cts';
import { tinyPdf } from '../support/pdf.cts';
import {
	errorOutputWorkflow,
	exampleBehindWebhook,
	pdfBehindWebhook,
	streamingWorkflow,
} from '../../dev/n8n/workflows.cts';

const service = useLocalService();
const badKey = { id: 'bad-key', name: 'Wrong key', type: 'chatCompletionsApi' };
const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const chat = { credential, model: 'echo-1', prompt: '={{ $json.body.question }}' };
	return {
		credentials: [
			credential,
			{ ...badKey, data: { apiKey: 'sk-example-wrong-key', baseUrl: service().baseUrl } },
		],
		workflows: [
			...['chat', 'describe-image-url', 'describe-image-binary', 'tool-loop'].map((name) =>
				exampleBehindWebhook(name, service().origin),
			),
			errorOutputWorkflow('bad-key', { ...chat, credential: badKey }),
			errorOutputWorkflow('model-outside-group', { ...chat, model: 'echo-pro' }),
			pdfBehindWebhook('pdf', { ...chat, prompt: 'What is due?' }),
			streamingWorkflow('stream', {
				...chat,
				options: { stream: true, extraBody: '{"x_local": {"delay_ms": 40}}' },
			}),
		],
	};
});

const answer = (path: string, body?: unknown) => n8n().answer(path, body);

describe('the example workflows, each behind a Webhook trigger', () => {
	test('chat: the reply of the echo model', async () => {
		const reply = await answer('chat', { question: 'What can n8n do with a chat model?' });
		expect(reply).toMatchObject({
			content: 'What can n8n do with a chat model?',
			finish_reason: 'stop',
			tool_calls: [],
			usage: { total_tokens: expect.any(Number) },
		});
		expect(reply.model).toMatch(/^echo-1/);
	});

	test('describe an image from a URL', async () => {
		const reply = await answer('describe-image-url');
		expect(reply.content).toBe(
			'Image 1: PNG 2x3 (detail low)\n\nYou asked: What is in this picture? Answer in one sentence.',
		);
	});

	test('describe an image from binary data (downloaded by an HTTP Request node)', async () => {
		const reply = await answer('describe-image-binary');
		expect(reply.content).toBe('Image 1: JPEG 4x5\n\nYou asked: Describe this photo.');
	});

	test('the tool loop: four parallel calls answered through Switch, Edit Fields and Merge', async () => {
		const reply = await answer('tool-loop');
		expect(reply.answer).toBe(
			'Based on the tools: weather({"city":"Paris"}) = {"city":"Paris","sky":"sunny","celsius":15}; ' +
				'weather({"city":"Tokyo"}) = {"city":"Tokyo","sky":"rain","celsius":15}; ' +
				'time({"city":"Paris"}) = {"city":"Paris","time":"14:00"}; ' +
				'time({"city":"Tokyo"}) = {"city":"Tokyo","time":"22:00"}',
		);
	});
});

describe('files', () => {
	test('a PDF in binary data (made by Convert to File) goes to the model as a file, which answers from its text', async () => {
		const bytes = tinyPdf(['Invoice 42', 'Total due: 99 EUR']);
		const reply = await answer('pdf', { pdf: bytes.toString('base64') });
		expect(reply.content).toBe('What is due?\ninvoice.pdf: Invoice 42\nTotal due: 99 EUR');
		expect(JSON.stringify(reply.messages)).toContain(
			`{"type":"file","file":{"filename":"invoice.pdf","file_data":"${placeholderOf('data', bytes)}"}}`,
		);
	});
});

describe('On Error "Continue (using error output)": the mapped error on the error output', () => {
	test('a wrong API key', async () => {
		expect(await answer('bad-key', { question: 'hello' })).toEqual({
			error: 'The service rejected the API key (item 0)',
		});
	});

	test("a model outside the key's group", async () => {
		expect(await answer('model-outside-group', { question: 'hello' })).toEqual({
			error: 'Model "echo-pro" is not available to this API key (item 0)',
		});
	});
});

describe('a Webhook in "Streaming" response mode', () => {
	test('the text arrives in pieces while the model is still writing', async () => {
		const question = 'one two three four five six seven eight nine ten eleven twelve';
		const response = await n8n().webhook('stream', { question });
		expect(response.status).toBe(200);
		const reads = await readStreamed(response);
		const withText = reads.filter((read) => read.deltas.length > 0);
		expect(reads.flatMap((read) => read.deltas).join('')).toBe(question);
		// Twelve words 40 ms apart: the text comes in several reads, the first well before the end.
		expect(withText.length).toBeGreaterThanOrEqual(4);
		const endRead = reads.findIndex((read) => read.end);
		expect(endRead).toBeGreaterThan(reads.indexOf(withText[0]));
		expect(reads[reads.length - 1].at - withText[0].at).toBeGreaterThanOrEqual(200);
	});
});
