/**
 * The package in a real n8n through the Portkey AI Gateway (test/support/portkey.cts) in front of the local
 * service, set up as a Portkey user does it (Extra Headers `x-portkey-provider` and `x-portkey-custom-host`):
 * Chat Completion whole and streamed, a stream Portkey closes half-way, the AI Agent with the Chat Model and a
 * tool, "From list" and the credential test, failures in Portkey's body shapes in the node's words (and the
 * credential test's, with the fix), 429 and 500 retried, documents embedded into a Simple Vector Store and
 * reranked through Portkey's catch-all route, and a recording an HTTP Request node downloaded transcribed
 * through Portkey as multipart.
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
import { DEFAULT_KEY_MODELS } from '../support/listed-models.cts';
import { portkeyHeaders, usePortkey } from '../support/portkey.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';
import { agentWorkflow } from './chat-model-workflows.cts';
import { insertWorkflow } from './embeddings-workflows.cts';
import { chain, download, mediaNode, model } from './media-workflows.cts';
import { rerankedSearchWorkflow } from './reranker-workflows.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();
const portkey = usePortkey(service);

/** Where Portkey is sent for a service that does not run: host and port, as Portkey's words name them. */
let downAddress = '';
beforeAll(async () => {
	downAddress = `127.0.0.1:${await closedPort()}`;
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
let media: CredentialToImport;
/** The credentials Portkey fails with, by id (`wrong-key`, ...). */
const failing = new Map<string, CredentialToImport>();
const n8n = useRealN8n(() => {
	credential = through('default', keys.default);
	const rag = through('rag', keys.rag);
	const failures = [
		through('wrong-key', 'sk-example-wrong-key'),
		through('no-provider', keys.default, {}),
		// An address without its scheme: Portkey's "Invalid custom host".
		through(
			'custom-host',
			keys.default,
			portkeyHeaders(service().baseUrl.replace(/^http:\/\//, '')),
		),
		through('upstream-down', keys.default, portkeyHeaders(`http://${downAddress}/v1`)),
		// A port Portkey's fetch will not connect to: its "bad port".
		through('bad-port', keys.default, portkeyHeaders('http://127.0.0.1:10080/v1')),
	];
	for (const failure of failures) failing.set(failure.id, failure);
	const cut = through('cut', keys.default, portkeyHeaders(service().baseUrl, { cut_after: 2 }));
	media = through('media', keys.media);
	const retried = [429, 500].map((status) =>
		through(`${status}`, keys.default, portkeyHeaders(service().baseUrl, failFirst(status))),
	);
	const chat = { credential, model: 'echo-1', prompt: '={{ $json.body.question }}' };
	const embeddings = { credential: rag, model: 'embed-1' };
	return {
		credentials: [credential, rag, ...failures, cut, media, ...retried],
		workflows: [
			errorOutputWorkflow('portkey-chat', chat),
			streamingWorkflow('portkey-stream', { ...chat, options: { stream: true } }),
			streamingWorkflow('portkey-stream-cut', {
				...chat,
				credential: cut,
				options: { stream: true, ...NO_RETRIES },
			}),
			agentWorkflow('portkey-agent', { credential, model: 'tools-1' }),
			...failures.map((failure) =>
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
			chain('portkey-transcribe', [
				download(-220, service().origin),
				mediaNode('Transcribe', 0, media, {
					resource: 'audio',
					operation: 'transcribe',
					model: model('whisper-local'),
					binaryPropertyName: 'data',
				}),
			]),
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

test('a stream Portkey closes half-way: the caller gets an error, and the execution says the reply was cut', async () => {
	const response = await n8n().webhook('portkey-stream-cut', {
		question: 'one two three four five six',
	});
	const reads = await readStreamed(response);
	// What came before the cut may have shown; then the error, and no end of a finished reply.
	expect(reads.flatMap((read) => read.deltas).join('')).toBe('one two');
	expect(reads.flatMap((read) => read.errors)).toEqual([
		'The assistant could not answer this message. Please try again, or put it another way.',
	]);
	expect(reads.some((read) => read.end)).toBe(false);
	const rest = await N8nRest.login(n8n().url, OWNER);
	const recorded = await rest.lastError('e2e-portkey-stream-cut');
	expect(recorded?.message).toMatch(/^The stream ended before the reply was complete/);
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
	).toEqual(DEFAULT_KEY_MODELS);
	expect(
		await rest.testCredential({ ...stored, type: credential.type, data: credential.data }),
	).toMatchObject({ status: 'OK' });
});

const unreached = () =>
	`The gateway answered, but could not reach the service behind it at ${downAddress} (ECONNREFUSED)`;

test.each([
	[
		'{"error": {...}}: the upstream refusing the key',
		'wrong-key',
		() => 'The service rejected the API key',
		// The model list comes through Portkey's passthrough route, which passes the service's words as they are.
		/^The service rejected the API key\. The service answered "Incorrect API key provided: sk-exa\.\.\.-key\." \(HTTP 401/,
		1,
	],
	[
		'{status, message}: Portkey without its provider header',
		'no-provider',
		() =>
			'The service rejected the request: Either x-portkey-config or x-portkey-provider header is required',
		/add it to the credential's Extra Headers, as JSON: \{"x-portkey-provider": "openai"\}/,
		0,
	],
	[
		'{status, message}: Portkey refusing x-portkey-custom-host',
		'custom-host',
		() => 'The service rejected the request: Invalid custom host',
		/correct it in the credential's Extra Headers, as JSON: \{"x-portkey-custom-host": /,
		0,
	],
	[
		'{"html-message": ...} (text/plain for the models): Portkey unable to reach the upstream',
		'upstream-down',
		unreached,
		/Check that the service behind the gateway runs at 127\.0\.0\.1:\d+ and that the gateway is set to its address \(Portkey: x-portkey-custom-host/,
		0,
	],
	[
		'{"html-message": ...}: Portkey refusing the port of x-portkey-custom-host',
		'bad-port',
		() =>
			'The gateway answered, but would not connect to the service behind it: the port in the address it was given is one it refuses (bad port)',
		/Run the service behind the gateway on another port .* and set the gateway to that address/,
		0,
	],
])(
	'%s: the error output and the credential test in its words, the fix in the credential test',
	async (_name, id, words, fix, received) => {
		expect(await answer(`portkey-${id}`, 'Hello')).toEqual({ error: `${words()} (item 0)` });
		expect(await service().requests()).toHaveLength(received);
		const rest = await N8nRest.login(n8n().url, OWNER);
		const failure = failing.get(`portkey-${id}`)!;
		const tested = await rest.testCredential({
			...failure,
			id: n8n().credentialId(failure.id),
		});
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(fix);
	},
);

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

test('a recording downloaded by an HTTP Request node is transcribed through Portkey as multipart', async () => {
	const [item] = (await n8n().answer('portkey-transcribe')) as unknown as IDataObject[];
	expect(item.text).toBe('When does the office garage open?');
	const [upload] = await service().requests();
	expect(upload.path).toBe('/v1/audio/transcriptions');
	expect(upload.body).toEqual([
		{ name: 'model', value: 'whisper-local' },
		expect.objectContaining({ name: 'file', filename: 'question.wav', type: 'audio/wav' }),
	]);
});
