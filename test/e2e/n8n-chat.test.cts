/**
 * The n8n Chat example (examples/n8n-chat-agent.workflow.json) in a real n8n with the packed package: a Chat
 * Trigger made available in n8n Chat (which streams by default), the AI Agent with streaming and *Automatically
 * Passthrough Binary PDFs*, its Simple Memory, the Chat Completions Chat Model, and the branch that keeps an attached
 * PDF's text in the memory (Filter, Extract from File, Chat Memory Manager). n8n Chat is switched on as
 * `npm run try` does it. Messages are posted to the Chat Trigger as n8n's chat does (JSON, or multipart with the
 * uploaded files, and the session's id), its trigger made public so that no login is needed; and one through n8n
 * Chat's own API, as the Chat page sends it (the file then reaches the trigger as n8n Chat hands it over).
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import type { WorkflowNode } from '../../dev/n8n/workflows.cts';
import { tinyPdf } from '../support/pdf.cts';
import { keys, useLocalService } from '../support/service.cts';
import { publicChatExample } from './chat-model-workflows.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();
let chatPath = '';
let noFilesPath = '';

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const fallbackKey = {
		id: 'fallback-key',
		name: 'Fallback key',
		type: 'chatCompletionsApi',
		data: { apiKey: keys.fallback, baseUrl: service().baseUrl },
	};
	const example = publicChatExample('n8n-chat-agent', service().origin);
	chatPath = example.chatPath;
	// The same workflow on a model that cannot read files: its own trigger, the model swapped.
	const noFilesWebhook = '5d1c7a3e-0f42-4b8e-9c61-2a7e4b9d3f05';
	noFilesPath = `${noFilesWebhook}/chat`;
	const noFiles = {
		...example.workflow,
		id: 'e2e-n8n-chat-no-files',
		name: 'n8n Chat agent on a model without file input',
		nodes: (example.workflow.nodes as WorkflowNode[]).map((node) =>
			node.webhookId !== undefined
				? { ...node, id: `${node.id.slice(0, -4)}0001`, webhookId: noFilesWebhook }
				: node.credentials !== undefined
					? {
							...node,
							parameters: {
								...node.parameters,
								model: { __rl: true, mode: 'id', value: 'no-files-1' },
							},
							credentials: { chatCompletionsApi: { id: fallbackKey.id, name: fallbackKey.name } },
						}
					: node,
		),
	};
	return { credentials: [credential, fallbackKey], workflows: [example.workflow, noFiles] };
});

let rest: N8nRest;
beforeAll(async () => {
	rest = await N8nRest.login(n8n().url, OWNER);
	for (const [id, path] of [
		['e2e-n8n-chat-agent', chatPath],
		['e2e-n8n-chat-no-files', noFilesPath],
	]) {
		await rest.publish(id);
		// The public chat answers GET with its page once its webhooks are live.
		const deadline = Date.now() + 60_000;
		while ((await fetch(`${n8n().url}/webhook/${path}`)).status !== 200) {
			if (Date.now() > deadline) throw new Error(`The chat at /webhook/${path} did not go live`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
}, 120_000);

/** A chat message as n8n's chat sends it: multipart with the files when there are any; a new session unless given. */
function send(
	path: string,
	chatInput: string,
	files: Array<{ name: string; type: string; bytes: Buffer }> = [],
	sessionId = `e2e-${Date.now()}`,
) {
	const url = `${n8n().url}/webhook/${path}`;
	const fields = { action: 'sendMessage', sessionId, chatInput };
	if (files.length === 0) {
		return fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(fields),
		});
	}
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	for (const file of files) {
		form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
	}
	return fetch(url, { method: 'POST', body: form });
}

const invoice = {
	name: 'invoice.pdf',
	type: 'application/pdf',
	bytes: tinyPdf(['Invoice 42', 'Total due: 99 EUR']),
};

type Message = { role: string; content: unknown };

test('n8n Chat is off as n8n ships it; switched on as npm run try does, it lists the example as an agent', async () => {
	await expect(rest.chatAgents()).rejects.toThrow('403');
	await expect(rest.chatAgents()).rejects.toThrow('Chat Hub is disabled');
	await rest.setChat(true);
	expect(await rest.chatAgents()).toContainEqual({
		name: 'Document assistant',
		description: 'Answers questions, and reads the PDFs you attach.',
		workflowId: 'e2e-n8n-chat-agent',
	});
});

test('a message gets a streamed reply: several pieces, then the end', async () => {
	const response = await send(chatPath, 'Hello from n8n Chat, how are you today?');
	expect(response.status).toBe(200);
	const reads = await readStreamed(response);
	const deltas = reads.flatMap((read) => read.deltas);
	expect(deltas.join('')).toBe('Hello from n8n Chat, how are you today?');
	expect(deltas.length).toBeGreaterThan(1);
	expect(reads.some((read) => read.end)).toBe(true);
	const [request] = await service().requests();
	expect((request.body as { stream?: boolean }).stream).toBe(true);
});

test('an uploaded PDF reaches the model as a file part, and the agent answers from its text', async () => {
	const response = await send(chatPath, 'What is the total?', [invoice]);
	expect(response.status).toBe(200);
	const text = (await readStreamed(response)).flatMap((read) => read.deltas).join('');
	expect(text).toBe('invoice.pdf: Invoice 42\nTotal due: 99 EUR');
	const [request] = await service().requests();
	const messages = (request.body as { messages: Message[] }).messages;
	expect(messages.at(-1)).toEqual({
		role: 'user',
		content: [
			{
				type: 'file',
				file: {
					filename: 'invoice.pdf',
					file_data: `data:application/pdf;base64,${invoice.bytes.toString('base64')}`,
				},
			},
		],
	});
	expect(messages.some((message) => message.content === 'What is the total?')).toBe(true);
});

test("a follow-up question in the same chat is sent with the earlier turn and the PDF's text (Simple Memory); the PDF itself went with its own message", async () => {
	const sessionId = `e2e-follow-up-${Date.now()}`;
	const first = await send(chatPath, 'What is the total?', [invoice], sessionId);
	const answer = (await readStreamed(first)).flatMap((read) => read.deltas).join('');
	expect(answer).toBe('invoice.pdf: Invoice 42\nTotal due: 99 EUR');
	await service().clearRequests();

	const followUp = await send(chatPath, 'Which invoice was that?', [], sessionId);
	expect((await readStreamed(followUp)).flatMap((read) => read.deltas).join('')).toBe(
		'Which invoice was that?',
	);
	const [request] = await service().requests();
	const messages = (request.body as { messages: Message[] }).messages;
	expect(messages.filter((message) => message.role !== 'system')).toEqual([
		{ role: 'user', content: 'What is the total?' },
		{ role: 'assistant', content: answer },
		{
			role: 'user',
			content:
				'The file invoice.pdf, attached to the message "What is the total?", reads:\n\nInvoice 42\nTotal due: 99 EUR',
		},
		{ role: 'user', content: 'Which invoice was that?' },
	]);

	// Another chat (another session) starts afresh.
	await service().clearRequests();
	await readStreamed(await send(chatPath, 'Hello again'));
	const [fresh] = await service().requests();
	expect(
		(fresh.body as { messages: Message[] }).messages.filter((message) => message.role !== 'system'),
	).toEqual([{ role: 'user', content: 'Hello again' }]);
});

test('through n8n Chat itself: the PDF it hands over (binary data0, its files without binaryKey) is read and its text kept in the memory', async () => {
	await rest.setChat(true);
	const before = (await rest.executions('e2e-n8n-chat-agent')).length;
	const question = 'What is the total of this invoice, asked in n8n Chat?';
	await rest.sendChatMessage('e2e-n8n-chat-agent', question, [
		{ fileName: invoice.name, mimeType: invoice.type, data: invoice.bytes.toString('base64') },
	]);
	const deadline = Date.now() + 60_000;
	let finished: Array<{ id: string; status: string }> = [];
	while (finished.length <= before) {
		if (Date.now() > deadline) throw new Error('n8n Chat ran no execution of the example');
		await new Promise((resolve) => setTimeout(resolve, 250));
		finished = await rest.executions('e2e-n8n-chat-agent', ['success', 'error', 'crashed']);
	}
	const { runData, error } = await rest.result(finished[0].id);
	expect(error).toBeUndefined();
	const trigger = runData['When chat message received'][0].data!.main[0][0].json;
	// What n8n Chat hands over, unlike its public chat: the file's data under `data0`, no binaryKey in `files`.
	expect(trigger.files).toEqual([expect.not.objectContaining({ binaryKey: expect.anything() })]);
	expect(runData['PDF text'][0].data!.main[0][0].json.text).toBe('Invoice 42\nTotal due: 99 EUR');
	const kept = runData['Keep the PDF text in memory'][0].error;
	expect(kept).toBeUndefined();
	const requests = await service().requests();
	expect(JSON.stringify(requests.map((request) => request.body))).toContain(question);
});

test("a model that cannot read files: the chat user gets no internals; the execution keeps the service's words and the fix", async () => {
	const response = await send(noFilesPath, 'What is the total?', [invoice]);
	const errors = (await readStreamed(response)).flatMap((read) => read.errors);
	expect(errors).toEqual([
		'The assistant could not answer this message. Please try again, or put it another way.',
	]);
	const recorded = await rest.lastError('e2e-n8n-chat-no-files');
	expect(recorded?.message).toContain('The model `no-files-1` does not support file input');
	expect(recorded?.message).toContain(
		'This model cannot read PDFs or other files: choose one that can',
	);
});

test('an HTML page uploaded as report.pdf: the chat user is told the file is not a PDF and to upload the PDF itself', async () => {
	const page = {
		name: 'report.pdf',
		type: 'application/pdf',
		bytes: Buffer.from('<!DOCTYPE html><html><body>Please log in</body></html>'),
	};
	const response = await send(chatPath, 'What does this report say?', [page]);
	const errors = (await readStreamed(response)).flatMap((read) => read.errors);
	expect(errors).toEqual([
		'The file "report.pdf" is not a PDF: it is an HTML page. Please upload the PDF itself.',
	]);
	const recorded = await rest.lastError('e2e-n8n-chat-agent');
	expect(recorded?.message).toContain('sent as a PDF, but it is an HTML page');
});
