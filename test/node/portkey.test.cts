/**
 * Every node through n8n's engine and a gateway nobody on the team wrote: the Portkey AI Gateway
 * (test/support/portkey.cts) in front of the local service, set up as a Portkey user does it (Extra Headers
 * `x-portkey-provider` and `x-portkey-custom-host`). What works against our own service must work through it.
 */
import '../support/debug-log.cts';

import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import type { IBinaryData, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { modelOutputs, runProbe, warmUp } from './chat-model-probe.cts';
import { runEmbeddings } from './embeddings-probe.cts';
import { runReranker } from './reranker-probe.cts';
import type { StoreDocument } from './reranker-probe.cts';
import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	runOneItem,
	simpleParameters,
} from '../support/chat-node.cts';
import { pngHeader } from '../support/images.cts';
import { loggedFile, silentWav } from '../support/media.cts';
import { startCapture } from '../support/key-leaks.cts';
import { portkeyHeaders, usePortkey } from '../support/portkey.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';

const service = useLocalService();
const portkey = usePortkey(service);

beforeAll(async () => await warmUp(keys.default, service().baseUrl), 60_000);

const NO_RETRIES = { maxRetries: 0, maxRateLimitWait: 0 };

/** Runs the Chat Completion node on one item through Portkey (On Error: Continue); `credential` overrides the Extra Headers. */
async function chatItem(
	parameters: INodeParameters,
	{ apiKey = keys.default, credential = portkey.credential(), baseUrl = portkey.baseUrl() } = {},
): Promise<IDataObject> {
	return await runOneItem(apiKey, baseUrl, parameters, credential);
}

const description = (json: IDataObject) => (json.error_details as IDataObject).description;

describe('chat through Portkey', () => {
	test.each([false, true])(
		'the Chat Completion node answers (streamed: %s), and the service got the key Portkey passed on',
		async (stream) => {
			const json = await chatItem(
				simpleParameters('Hello there', 'echo-1', { options: { stream } }),
			);
			expect(json.content).toBe('Hello there');
			const [request] = await service().requests();
			expect(request.headers.authorization).toBe(`Bearer ${keys.default}`);
			// Portkey read its headers and did not pass them on: the request went through it.
			expect(request.headers).not.toHaveProperty('x-portkey-provider');
			expect(request.body).toMatchObject({ model: 'echo-1', ...(stream ? { stream: true } : {}) });
		},
	);

	test('the Chat Model answers whole and streamed', async () => {
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: portkey.baseUrl(),
			credential: portkey.credential(),
			model: 'echo-1',
			options: { maxRetries: 0 },
			script: async (model) => {
				let streamed: AIMessageChunk | undefined;
				for await (const chunk of await model.stream('Hello stream'))
					streamed = streamed === undefined ? chunk : concat(streamed, chunk);
				return { whole: (await model.invoke('Hello whole')).text, streamed: streamed?.text };
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.output).toEqual({ whole: 'Hello whole', streamed: 'Hello stream' });
	});

	test('parallel tool calls come out one item per call', async () => {
		const city = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } } });
		const { outputs } = await engineWith(
			keys.default,
			portkey.baseUrl(),
			portkey.credential(),
		).runNode({
			type: NODE_TYPE,
			parameters: {
				model: modelFromList('tools-1'),
				promptType: 'json',
				toolsMode: 'define',
				tools: { values: [{ name: 'weather', description: 'Weather', parameters: city }] },
			},
			items: jsonItems({ messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }] }),
		});
		expect(outputs[1].map((item) => [item.json.name, item.json.args])).toEqual([
			['weather', { city: 'Paris' }],
			['weather', { city: 'Tokyo' }],
		]);
	});

	test('"From list" shows the key\'s models and the credential test passes', async () => {
		const engine = engineWith(keys.rag, portkey.baseUrl(), portkey.credential());
		const list = await engine.listSearch({ type: NODE_TYPE, method: 'searchModels' });
		expect(list.results.map((entry) => entry.name)).toEqual([
			'echo-1',
			'embed-1',
			'rerank-1',
			'tools-1',
		]);
		const result = await engine.credentialTest({
			type: NODE_TYPE,
			method: 'testChatCompletionsApi',
			credentialType: 'chatCompletionsApi',
			data: { apiKey: keys.rag, baseUrl: portkey.baseUrl(), ...portkey.credential() },
		});
		expect(result.status).toBe('OK');
	});
});

describe('failures in each of the body shapes Portkey answers', () => {
	test('{"error": {...}}: the upstream refusing the key, in Portkey\'s words: "openai", the x-portkey-provider value, shown', async () => {
		const json = await chatItem(simpleParameters('Hello', 'echo-1', { options: NO_RETRIES }), {
			apiKey: 'sk-example-wrong-key',
		});
		expect(json.error).toBe('The service rejected the API key (item 0)');
		expect(json.error_details).toMatchObject({
			http_code: 401,
			code: 'invalid_api_key',
			service_message: expect.stringMatching(/^openai error: Incorrect API key provided: /),
		});
		expect(description(json)).toMatch(
			/^The service answered "openai error: Incorrect API key provided: /,
		);
		expect(JSON.stringify(json)).not.toContain('[x-portkey-');
	});

	test("{status, message}: Portkey's own 400 without its provider header gives the fix in the credential's Extra Headers", async () => {
		const json = await chatItem(simpleParameters('Hello', 'echo-1', { options: NO_RETRIES }), {
			credential: { extraHeaders: '{}' },
		});
		expect(json.error).toBe(
			'The service rejected the request: Either x-portkey-config or x-portkey-provider header is required (item 0)',
		);
		expect(description(json)).toBe(
			'The service answered "Either x-portkey-config or x-portkey-provider header is required" (HTTP 400). The service wants the header x-portkey-provider: add it to the credential\'s Extra Headers, as JSON: {"x-portkey-provider": "openai"}, with the value the service\'s documentation gives.',
		);
		expect(await service().requests()).toHaveLength(0);
	});

	test('a stream Portkey closes half-way (no finish_reason, no [DONE]) is an error, not a short reply', async () => {
		const json = await chatItem(
			simpleParameters('one two three four five six', 'echo-1', {
				options: { stream: true, ...NO_RETRIES },
			}),
			{ credential: portkey.credential({ cut_after: 2 }) },
		);
		expect(json.error).toMatch(/^The stream ended before the reply was complete/);
		expect(json.content).toBeUndefined();
	});

	test.each([429, 500])(
		'%i is retried through Portkey until the service answers',
		async (status) => {
			const failFirst = { id: `portkey-${status}`, count: 2, status, retry_after: '0' };
			const json = await chatItem(
				simpleParameters('Hello there', 'echo-1', {
					options: { maxRetryWait: 300, maxRateLimitWait: 5_000 },
				}),
				{ credential: portkey.credential({ fail_first: failFirst }) },
			);
			expect(json.content).toBe('Hello there');
			expect(await service().requests()).toHaveLength(3);
		},
	);
});

describe('embeddings, rerank and media through Portkey', () => {
	test('the Embeddings node gets one vector per text, in order', async () => {
		const run = await runEmbeddings({
			apiKey: keys.rag,
			baseUrl: portkey.baseUrl(),
			credential: portkey.credential(),
			options: { maxRetries: 0 },
			script: async (embeddings) => {
				const [first, second] = await embeddings.embedDocuments(['cats purr', 'dogs bark']);
				const query = await embeddings.embedQuery('cats purr');
				const same = (a: number[], b: number[]) => JSON.stringify(a) === JSON.stringify(b);
				return { same: same(first, query), differ: !same(first, second) };
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.output).toEqual({ same: true, differ: true });
	});

	test("the Reranker reaches /v1/rerank through Portkey's catch-all route, best first", async () => {
		const run = await runReranker({
			apiKey: keys.rag,
			baseUrl: portkey.baseUrl(),
			credential: portkey.credential(),
			options: { maxRetries: 0 },
			script: async (reranker) => ({
				documents: (
					await reranker.compressDocuments(
						['dogs bark', 'cats purr softly'].map((pageContent) => ({ pageContent, metadata: {} })),
						'cats purr',
					)
				).map((document: StoreDocument) => document.pageContent),
			}),
		});
		expect(run.error).toBeUndefined();
		expect(run.output).toEqual({ documents: ['cats purr softly', 'dogs bark'] });
		const [request] = await service().requests();
		expect(request.path).toBe('/v1/rerank');
	});

	const media = (parameters: INodeParameters, item: INodeExecutionData) =>
		createEngine({
			nodeTypes: { media: new MediaChatCompletions() },
			credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
			credentials: {
				chatCompletionsApi: {
					apiKey: keys.media,
					baseUrl: portkey.baseUrl(),
					...portkey.credential(),
				},
			},
		}).runNode({ type: 'media', parameters, items: [item] });
	const file = (bytes: Buffer, mimeType: string, fileName: string): INodeExecutionData => ({
		json: { prompt: 'make it blue' },
		binary: { data: { data: bytes.toString('base64'), mimeType, fileName } },
	});

	test('Edit an Image goes as multipart and comes back as an image', async () => {
		const png = pngHeader(2, 3);
		const { outputs, error } = await media(
			{
				resource: 'image',
				operation: 'edit',
				model: modelFromList('image-1'),
				prompt: '={{ $json.prompt }}',
				binaryPropertyName: 'data',
			},
			file(png, 'image/png', 'photo.png'),
		);
		expect(error).toBeUndefined();
		expect((outputs[0][0].binary?.data as IBinaryData).mimeType).toBe('image/png');
		const [request] = await service().requests();
		expect(request.body).toEqual(
			expect.arrayContaining([
				{ name: 'prompt', value: 'make it blue' },
				loggedFile('image', 'photo.png', 'image/png', png),
			]),
		);
	});

	test('Transcribe a Recording goes as multipart and the text comes back', async () => {
		const wav = silentWav(0.5);
		const { outputs, error } = await media(
			{
				resource: 'audio',
				operation: 'transcribe',
				model: modelFromList('whisper-local'),
				binaryPropertyName: 'data',
			},
			file(wav, 'audio/wav', 'talk.wav'),
		);
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.text).toMatch(/^A wav recording of \d+ bytes/);
	});
});

// Issue 64, items 1-4, through the real gateway: secrets masked and routing values shown, the fix for a
// header in Extra Headers, the upstream out of reach in its words, the fields Portkey drops named.
describe('what Portkey showed (issue 64)', () => {
	/** The credential's Extra Headers through Portkey to `upstream`, a Base URL. */
	const headers = (upstream: string) => ({
		extraHeaders: JSON.stringify(portkeyHeaders(upstream)),
	});

	test.each([
		['by its name', 'x-service-token', 'tok-shown-to-nobody'],
		['by its value, long and random', 'x-route-id', 'r7Kq2Zp9Xw4Lm8Vt'],
	])(
		'an Extra Headers value that carries a secret (%s) stays masked in the words Portkey passes on; "openai" shows',
		async (_how, name, secret) => {
			// The service quotes the value back (a knob it refuses), as a service may quote what it was sent.
			const json = await chatItem(simpleParameters('Hello', 'echo-1', { options: NO_RETRIES }), {
				credential: {
					extraHeaders: JSON.stringify({
						[name]: secret,
						...portkeyHeaders(service().baseUrl, { line_end: secret }),
					}),
				},
			});
			expect(json.error_details).toMatchObject({
				http_code: 400,
				service_message: `openai error: 'x_local.line_end' must be one of "lf", "crlf", "cr", got '[${name} value]'`,
			});
			expect(JSON.stringify(json)).not.toContain(secret.slice(0, 8));
		},
	);

	test('Portkey\'s 400 "Invalid custom host" (an address without its scheme) gives the fix in the credential\'s Extra Headers', async () => {
		const json = await chatItem(simpleParameters('Hello', 'echo-1', { options: NO_RETRIES }), {
			credential: headers(service().baseUrl.replace(/^http:\/\//, '')),
		});
		expect(json.error).toBe('The service rejected the request: Invalid custom host (item 0)');
		expect(description(json)).toBe(
			'The service answered "Invalid custom host" (HTTP 400). The header x-portkey-custom-host has a value the service does not take: correct it in the credential\'s Extra Headers, as JSON: {"x-portkey-custom-host": "https://api.example.com/v1"}.',
		);
		expect(await service().requests()).toHaveLength(0);
	});

	describe('a Portkey that cannot reach the service behind it says so, in each shape it answers', () => {
		let upstream = '';
		let address = '';
		beforeAll(async () => {
			address = `127.0.0.1:${await closedPort()}`;
			upstream = `http://${address}/v1`;
		});
		const unreached = () =>
			`The gateway answered, but could not reach the service behind it at ${address} (ECONNREFUSED)`;
		const fix = () =>
			`Check that the service behind the gateway runs at ${address} and that the gateway is set to its address (Portkey: x-portkey-custom-host in the credential's Extra Headers), then run again.`;

		test('Chat Completion ({"html-message": ...}): the host and port shown, the fix in Extra Headers', async () => {
			const json = await chatItem(simpleParameters('Hello', 'echo-1', { options: NO_RETRIES }), {
				credential: headers(upstream),
			});
			expect(json.error).toBe(`${unreached()} (item 0)`);
			expect(description(json)).toBe(
				`The service answered "Message: fetch failed Cause: Error: connect ECONNREFUSED ${address} Name: TypeError" (HTTP 500). ${fix()}`,
			);
		});

		test('a port fetch refuses to connect to ("bad port", no address): the port to change, no "run again later"', async () => {
			const json = await chatItem(simpleParameters('Hello', 'echo-1', { options: NO_RETRIES }), {
				credential: headers('http://127.0.0.1:10080/v1'),
			});
			expect(json.error).toBe(
				'The gateway answered, but would not connect to the service behind it: the port in the address it was given is one it refuses (bad port) (item 0)',
			);
			expect(description(json)).toBe(
				'The service answered "Message: fetch failed Cause: Error: bad port Name: TypeError" (HTTP 500). Run the service behind the gateway on another port (fetch refuses a few, such as 6000, 6665-6669 and 10080) and set the gateway to that address (Portkey: x-portkey-custom-host in the credential\'s Extra Headers).',
			);
		});

		test('the Embeddings node (a text/plain body)', async () => {
			const run = await runEmbeddings({
				apiKey: keys.rag,
				baseUrl: portkey.baseUrl(),
				credential: headers(upstream),
				options: { maxRetries: 0 },
				script: async (embeddings) => ({
					vectors: (await embeddings.embedDocuments(['cats purr'])).length,
				}),
			});
			expect(run.error).toMatchObject({ message: unreached(), httpCode: '500' });
			expect(run.error?.description).toContain(fix());
		});

		test('"From list" and the credential test (a text/plain body)', async () => {
			const engine = engineWith(keys.default, portkey.baseUrl(), headers(upstream));
			await expect(
				engine.listSearch({ type: NODE_TYPE, method: 'searchModels' }),
			).rejects.toMatchObject({ message: `Could not load the models: ${unreached()}` });
			const result = await engine.credentialTest({
				type: NODE_TYPE,
				method: 'testChatCompletionsApi',
				credentialType: 'chatCompletionsApi',
				data: { apiKey: keys.default, baseUrl: portkey.baseUrl(), ...headers(upstream) },
			});
			expect(result).toEqual({
				status: 'Error',
				message: `${unreached()}. The service answered "Message: fetch failed Cause: Error: connect ECONNREFUSED ${address} Name: TypeError" (HTTP 500). ${fix()}`,
			});
		});
	});

	/** Extra Body fields users send to OpenRouter through a gateway, and Prompt Caching's top-level cache_control. */
	const EXTRA_BODY =
		'{"provider": {"order": ["openai"]}, "top_k": 40, "transforms": ["middle-out"]}';
	/** The warning for `fields` (quoted, `, `-joined), `them` the word for them (`it` for one). */
	const warning = (fields: string, them = 'them') =>
		`Not forwarded by the gateway: ${fields}. Portkey (its x-portkey-* headers are on the reply) passes on to the service behind it only the OpenAI chat fields it knows, so the service never got ${them}. To send ${them}, set the credential's Base URL to its proxy route, which passes the body as it is (${portkey.baseUrl().replace(/\/v1$/, '/v1/proxy')}), or leave ${them} out.`;

	test("Extra Body's fields Portkey drops: the item's warnings name them, and the service indeed got none of them", async () => {
		const json = await chatItem(
			simpleParameters('Hello there', 'echo-1', {
				options: { extraBody: EXTRA_BODY, temperature: 0.5, ...NO_RETRIES },
			}),
		);
		expect(json.content).toBe('Hello there');
		expect(json.warnings).toEqual([warning('"provider", "top_k", "transforms"')]);
		const [request] = await service().requests();
		expect(request.body).toEqual({
			model: 'echo-1',
			messages: [{ role: 'user', content: 'Hello there' }],
			temperature: 0.5,
		});
	});

	test("the warning's way works: through Portkey's proxy route the service gets every field, and no warning", async () => {
		const json = await chatItem(
			simpleParameters('Hello there', 'echo-1', {
				options: { extraBody: EXTRA_BODY, promptCaching: 'automatic', ...NO_RETRIES },
			}),
			{ baseUrl: portkey.baseUrl().replace(/\/v1$/, '/v1/proxy') },
		);
		expect(json.content).toBe('Hello there');
		expect(json).not.toHaveProperty('warnings');
		const [request] = await service().requests();
		expect(request.body).toMatchObject({
			provider: { order: ['openai'] },
			top_k: 40,
			transforms: ['middle-out'],
			cache_control: { type: 'ephemeral' },
		});
	});

	test("Prompt Caching's top-level cache_control: the Chat Model's generation info and n8n's log name it", async () => {
		const stop = startCapture();
		let log = '';
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: portkey.baseUrl(),
			credential: portkey.credential(),
			model: 'echo-1',
			options: { promptCaching: 'automatic', maxRetries: 0 },
			script: async (model) => ({ text: (await model.invoke('Hello there')).text }),
		}).finally(() => (log = stop()));
		expect(run.error).toBeUndefined();
		expect(run.output).toEqual({ text: 'Hello there' });
		const [output] = modelOutputs(run.runData);
		const [[generation]] = (output.response as { generations: IDataObject[][] }).generations;
		const said = warning('"cache_control"', 'it');
		expect(generation.generationInfo).toMatchObject({ warnings: [said] });
		expect(log).toContain(said);
	});
});
