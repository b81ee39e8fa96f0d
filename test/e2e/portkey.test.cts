/**
 * The package in a real n8n through the Portkey AI Gateway (test/support/portkey.cts) in front of the local
 * service, set up as a Portkey user does it (Extra Headers `x-portkey-provider` and `x-portkey-custom-host`):
 * Chat Completion whole and streamed, the AI Agent with the Chat Model and a tool, "From list" and the
 * credential test, failures in Portkey's three body shapes, 429 and 500 retried, and documents embedded into a
 * Simple Vector Store and reranked through Portkey's catch-all route.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CredentialToImport } from '../../dev/n8n/import.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import {
	CHAT_NODE_TYPE,
	errorOutputWorkflow,
	streamingWorkflow,
} from '../../dev/n8n/workflows.cts';
import { portkeyHeaders, usePortkey } from '../support/portkey.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';
import { agentWorkflow } from './chat-model-workflows.cts';
import { insertWorkflow } from './embeddings-workflows.cts';
import { rerankedSearchWorkflow } from './reranker-workflows.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();
const portkey = usePortkey(service);

let upstreamDown = '';
beforeAll(async () => {
	upstreamDown = `http://127.0.0.1:${await closedPort()}/v1`;
});

/** A credential through Portkey named `id`: the key, and Extra Headers (Portkey's to the service unless given). */
const through = (id: string, apiKey: string, headers?: IDataObject): CredentialToImport => ({
	id: `portkey-${id}`,
	name: `Through Portkey: ${id}`,
	type: 'chatCompletionsApi',
	data: {
		apiKey,
		baseUrl: portkey.baseUrl(),
		extraHeaders:
			headers === undefined ? portkey.credential().extraHeaders : JSON.stringify(headers),
	},
});

const NO_RETRIES = { maxRetries: 0 };
const RETRIED = { maxRetryWait: 300, maxRateLimitWait: 5_000 };
const failFirst = (status: number) => ({
	fail_first: { id: `portkey-${status}`, count: 2, status, retry_after: '0' },
});

let credential: CredentialToImport;
const n8n = useRealN8n(() => {
	credential = through('default', keys.default);
	const rag = through('rag', keys.rag);
	const failing = [
		through('wrong-key', 'sk-example-wrong-key'),
		through('no-provider', keys.default, {}),
		through('upstream-down', keys.default, portkeyHeaders(upstreamDown)),
	];
	const retried = [429, 500].map((status) =>
		through(`${status}`, keys.default, portkeyHeaders(service().baseUrl, failFirst(status))),
	);
	const chat = { credential, model: 'echo-1', prompt: '={{ $json.body.question }}' };
	const embeddings = { credential: rag, model: 'embed-1' };
	return {
		credentials: [credential, rag, ...failing, ...retried],
		workflows: [
			errorOutputWorkflow('portkey-chat', chat),
			streamingWorkflow('portkey-stream', { ...chat, options: { stream: true } }),
			agentWorkflow('portkey-agent', { credential, model: 'tools-1' }),
			...failing.map((failure) =>
				errorOutputWorkflow(failure.id, { ...chat, credential: failure, options: NO_RETRIES }),
			),
			...retried.map((retrying) =>
				errorOutputWorkflow(retrying.id, { ...chat, credential: retrying, options: RETRIED }),
			),
			insertWorkflow('portkey-insert', 'portkey-store', embeddings),
			rerankedSearchWorkflow('portkey-reranked', 'portkey-store', {
				embeddings,
				reranker: { credential: rag, model: 'rerank-1', options: { topN: 2 } },
			}),
		],
	};
});

const answer = (path: string, question: string) => n8n().answer(path, { question });

test('Chat Completion answers whole and streamed', async () => {
	expect(await answer('portkey-chat', 'Hello there')).toMatchObject({ content: 'Hello there' });
	const response = await n8n().webhook('portkey-stream', { question: 'one two three' });
	const reads = await readStreamed(response);
	expect(reads.flatMap((read) => read.deltas).join('')).toBe('one two three');
	const requests = await service().requests();
	expect(requests.map((request) => request.headers['x-portkey-provider'])).toEqual([
		undefined,
		undefined,
	]);
});

test('the AI Agent with the Chat Model calls the tool and answers from it', async () => {
	const reply = await answer('portkey-agent', 'What is the weather in Paris?');
	expect(reply.output).toBe(
		'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]',
	);
});

test('"From list" shows the key\'s models and the credential test passes', async () => {
	const rest = await N8nRest.login(n8n().url, OWNER);
	const stored = { id: n8n().credentialId(credential.id), name: credential.name };
	expect(
		await rest.listSearch({ type: CHAT_NODE_TYPE, version: 1 }, 'model', 'searchModels', {
			chatCompletionsApi: stored,
		}),
	).toEqual([
		'echo-1',
		'json-1',
		'think-1',
		'think-inline-1',
		'think-tools-1',
		'tools-1',
		'vision-1',
	]);
	expect(
		await rest.testCredential({ ...stored, type: credential.type, data: credential.data }),
	).toMatchObject({ status: 'OK' });
});

test.each([
	[
		'{"error": {...}}: the upstream refusing the key',
		'portkey-wrong-key',
		/^The service rejected the API key \(item 0\)$/,
		1,
	],
	[
		'{status, message}: Portkey without its provider header',
		'portkey-no-provider',
		/x-portkey-provider.*\(item 0\)$/,
		0,
	],
	[
		'{"html-message": ...}: Portkey unable to reach the upstream',
		'portkey-upstream-down',
		/\(item 0\)$/,
		0,
	],
])('%s comes out of the error output', async (_name, path, error, received) => {
	expect(await answer(path, 'Hello')).toEqual({ error: expect.stringMatching(error) });
	expect(await service().requests()).toHaveLength(received);
});

test.each(['portkey-429', 'portkey-500'])(
	'%s: retried through Portkey until answered',
	async (path) => {
		expect(await answer(path, 'Hello there')).toMatchObject({ content: 'Hello there' });
		expect(await service().requests()).toHaveLength(3);
	},
);

test('documents embedded through Portkey are found and reranked through its catch-all route', async () => {
	await n8n().answer('portkey-insert', {
		documents: [{ text: 'Dogs bark at night.' }, { text: 'Cats purr when they are happy.' }],
	});
	const found = (await n8n().answer('portkey-reranked', {
		questions: [{ question: 'cats purr', topK: 2 }],
	})) as unknown as Array<{ document: { pageContent: string } }>;
	expect(found.map((item) => item.document.pageContent)).toEqual([
		'Cats purr when they are happy.',
		'Dogs bark at night.',
	]);
	const paths = (await service().requests()).map((request) => request.path);
	expect(paths).toContain('/v1/rerank');
});
