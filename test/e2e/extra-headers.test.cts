/**
 * The credential's Extra Headers in a real n8n with the packed package installed as n8n installs it: the
 * credential created through n8n's REST API (so stored and decrypted by n8n), Chat Completion (whole and streamed)
 * and the AI Agent with the Chat Model send them (the local service's request log shows them), a header the
 * package sets itself is refused before any request, and a value never shows in n8n's log.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import type { WorkflowToImport } from '../../dev/n8n/import.cts';
import { errorOutputWorkflow, streamingWorkflow } from '../../dev/n8n/workflows.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { keys, useLocalService } from '../support/service.cts';
import { agentWorkflow } from './chat-model-workflows.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();

const SECRET_VALUE = 'hv-Qz7Lw2Rk9Xm4Tp8Nc5Vb';
const HEADERS = { 'X-Title': 'My workflow', 'X-Proxy-Token': SECRET_VALUE };
const forbidden = { id: 'forbidden-header', name: 'Forbidden header', type: 'chatCompletionsApi' };

/** The workflow with On Error: Stop Workflow on every node (a credential's failure stops the run). */
const stoppingOnError = (workflow: WorkflowToImport): WorkflowToImport => ({
	...workflow,
	nodes: workflow.nodes.map((node) => ({
		...(node as Record<string, unknown>),
		onError: undefined,
	})),
});

const n8n = useRealN8n(() => {
	const plain = localCredential(keys.default, service().baseUrl);
	const credential = {
		...plain,
		data: { ...plain.data, extraHeaders: JSON.stringify(HEADERS) },
	};
	const chat = { credential, model: 'echo-1', prompt: '={{ $json.body.question }}' };
	return {
		credentials: [
			credential,
			{
				...forbidden,
				data: {
					...plain.data,
					extraHeaders: JSON.stringify({ 'content-type': 'text/plain', ...HEADERS }),
				},
			},
		],
		workflows: [
			errorOutputWorkflow('chat', chat),
			streamingWorkflow('stream', { ...chat, options: { stream: true } }),
			agentWorkflow('agent', { credential, model: 'tools-1' }),
			stoppingOnError(errorOutputWorkflow('forbidden', { ...chat, credential: forbidden })),
		],
	};
});

async function expectHeadersOnEveryRequest(count: number): Promise<void> {
	const requests = await service().requests();
	expect(requests.map((request) => request.path)).toEqual(
		Array(count).fill('/v1/chat/completions'),
	);
	for (const request of requests) {
		expect(request.headers).toMatchObject({
			'x-title': 'My workflow',
			'x-proxy-token': SECRET_VALUE,
			authorization: `Bearer ${keys.default}`,
			'content-type': 'application/json',
		});
	}
}

test('Chat Completion sends them', async () => {
	expect(await n8n().answer('chat', { question: 'Hello there' })).toMatchObject({
		content: 'Hello there',
	});
	await expectHeadersOnEveryRequest(1);
});

test('Chat Completion, streamed, sends them', async () => {
	const response = await n8n().webhook('stream', { question: 'one two three' });
	expect((await readStreamed(response)).flatMap((read) => read.deltas).join('')).toBe(
		'one two three',
	);
	await expectHeadersOnEveryRequest(1);
});

test('the AI Agent with the Chat Model sends them on every round', async () => {
	const reply = await n8n().answer('agent', { question: 'What is the weather in Paris?' });
	expect(reply.output).toBe(
		'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]',
	);
	await expectHeadersOnEveryRequest(2);
});

test('Content-Type in Extra Headers: the run fails saying so and how to fix it, nothing is sent', async () => {
	const response = await n8n().webhook('forbidden', { question: 'Hello there' });
	expect(response.status).toBe(500);
	const rest = await N8nRest.login(n8n().url, OWNER);
	expect(await rest.lastError('e2e-forbidden')).toMatchObject({
		message:
			'Extra Headers in the credential cannot set content-type: every request body is JSON (application/json)',
		description: 'Remove content-type from Extra Headers.',
	});
	expect(await service().requests()).toEqual([]);
});

test("a value never shows in n8n's log", () => {
	expect(n8n().logs()).not.toContain(SECRET_VALUE);
});
