/**
 * The credential's Extra Headers: every kind of request the package makes carries them (the local service's
 * request log shows what arrived); a header the package sets itself, a name HTTP does not allow, a line
 * break in a value and JSON that does not parse are refused before any request, naming the header; and a
 * value that carries a secret never shows in an output item, an error, a result of the list or the
 * credential test, or a line n8n logs at debug level, even from a gateway that quotes it, while a routing
 * value (`x-portkey-provider: openai`) shows as it is.
 */
import '../support/debug-log.cts';

import { concat } from '@langchain/core/utils/stream';
import type { AIMessageChunk } from '@langchain/core/messages';
import type { IDataObject } from 'n8n-workflow';

import { runEmbeddings } from './embeddings-probe.cts';
import { runProbe, warmUp } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	simpleParameters,
} from '../support/chat-node.cts';
import { capturedLog, expectNoLeak, QUICK_RETRIES } from '../support/key-leaks.cts';
import { leakyAnswers, useLeakyGateway } from '../support/leaky-gateway.cts';
import type { RecordedRequest } from '../support/service.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

/** A value no text has by chance: it must never show. */
const SECRET_VALUE = 'hv-Qz7Lw2Rk9Xm4Tp8Nc5Vb';
const SECRET_HEADER = 'X-Proxy-Token';

/** The headers users set for OpenRouter, Portkey and a company proxy. */
const HEADERS = {
	'HTTP-Referer': 'https://example.com/app',
	'X-Title': 'My workflow',
	'x-portkey-trace-id': 'trace-42',
	[SECRET_HEADER]: SECRET_VALUE,
};

const credentialWith = (headers: unknown) => ({
	extraHeaders: typeof headers === 'string' ? headers : JSON.stringify(headers),
});

const leaky = useLeakyGateway(leakyAnswers, SECRET_HEADER.toLowerCase());

/** Portkey's routing headers: no secret in them, so the service's words that name them show them as they are. */
const ROUTING = {
	'x-portkey-provider': 'openai',
	'x-portkey-custom-host': 'http://127.0.0.1:9/v1',
};
const routing = useLeakyGateway(leakyAnswers, 'x-portkey-provider');

/** A value that looks like a key (long, no spaces, random) under a name that says nothing of secrets. */
const KEYLIKE_VALUE = 'Qz7Lw2Rk9Xm4Tp8Nc5Vb1';
const keylike = useLeakyGateway(leakyAnswers, 'x-session');

beforeAll(async () => await warmUp(keys.default, service().baseUrl), 60_000);

const invoke: ProbeScript = async (model) => ({ text: (await model.invoke('Hello there')).text });

const stream: ProbeScript = async (model) => {
	let whole: AIMessageChunk | undefined;
	for await (const chunk of await model.stream('Hello there'))
		whole = whole === undefined ? chunk : concat(whole, chunk);
	return { text: whole?.text ?? '' };
};

/** What one place of the package gives back: the reply's text, or the error's message and description. */
interface Outcome {
	text?: string;
	error?: string;
}

const shown = (error: { message: string; description?: string | null }) =>
	`${error.message}\n${error.description ?? ''}`;

type Place = (baseUrl: string, credential: IDataObject, apiKey?: string) => Promise<Outcome>;

const chatCompletion =
	(streamed: boolean): Place =>
	async (baseUrl, credential, apiKey = keys.default) => {
		const { outputs, error } = await engineWith(apiKey, baseUrl, credential).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hello there', 'echo-1', {
				options: { stream: streamed, ...QUICK_RETRIES },
			}),
			items: jsonItems({}),
		});
		return error ? { error: shown(error) } : { text: outputs[0][0].json.content as string };
	};

/** A Model expression over a batch: the node checks its models against the key's list before the chat requests. */
const modelCheck: Place = async (baseUrl, credential, apiKey = keys.default) => {
	const { outputs, error } = await engineWith(apiKey, baseUrl, credential).runNode({
		type: NODE_TYPE,
		parameters: {
			...simpleParameters('Hello there'),
			model: modelFromList('={{ $json.model }}'),
		},
		items: jsonItems({ model: 'echo-1' }, { model: 'echo-1' }),
	});
	return error ? { error: shown(error) } : { text: outputs[0][0].json.content as string };
};

const modelList: Place = async (baseUrl, credential, apiKey = keys.default) =>
	await engineWith(apiKey, baseUrl, credential)
		.listSearch({ type: NODE_TYPE, method: 'searchModels' })
		.then(
			(result) => ({ text: result.results.map((entry) => entry.name).join(' ') }),
			(error: { message: string; description?: string }) => ({ error: shown(error) }),
		);

const credentialTest: Place = async (baseUrl, credential, apiKey = keys.default) => {
	const result = await engineWith(apiKey, baseUrl, credential).credentialTest({
		type: NODE_TYPE,
		method: 'testChatCompletionsApi',
		credentialType: 'chatCompletionsApi',
		data: { apiKey, baseUrl, ...credential },
	});
	return result.status === 'OK' ? { text: result.message } : { error: result.message };
};

const chatModel =
	(script: ProbeScript): Place =>
	async (baseUrl, credential, apiKey = keys.default) => {
		const run = await runProbe({
			apiKey,
			baseUrl,
			credential,
			model: 'echo-1',
			options: { maxRetries: 0 },
			script,
		});
		return run.error ? { error: shown(run.error) } : { text: run.output?.text as string };
	};

const embeddings: Place = async (baseUrl, credential, apiKey = keys.rag) => {
	const run = await runEmbeddings({
		apiKey,
		baseUrl,
		credential,
		options: { maxRetries: 0 },
		script: async (model) => ({ count: (await model.embedDocuments(['one', 'two'])).length }),
	});
	return run.error ? { error: shown(run.error) } : { text: `${run.output?.count as number}` };
};

/** Each place, what it answers with the local service, and the requests it makes. */
const places: Array<[string, Place, string, string[]]> = [
	['Chat Completion', chatCompletion(false), 'Hello there', ['POST /v1/chat/completions']],
	['Chat Completion, streamed', chatCompletion(true), 'Hello there', ['POST /v1/chat/completions']],
	[
		'Chat Completion, the model check of a Model expression',
		modelCheck,
		'Hello there',
		['GET /v1/models', 'POST /v1/chat/completions', 'POST /v1/chat/completions'],
	],
	[
		'the model list',
		modelList,
		'echo-1 json-1 think-1 think-inline-1 think-tools-1 tools-1 vision-1',
		['GET /v1/models?output_modalities=all', 'GET /api/pricing', 'GET /model/info'],
	],
	[
		'the credential test',
		credentialTest,
		'Connection successful: this key may use 7 models.',
		[
			'GET /v1/models?output_modalities=all',
			'GET /api/pricing',
			'GET /model/info',
			'GET /v1/key',
			'GET /v1/dashboard/billing/subscription',
			'GET /v1/dashboard/billing/usage',
			'GET /key/info',
			'GET /api/usage/token',
		],
	],
	['the Chat Model', chatModel(invoke), 'Hello there', ['POST /v1/chat/completions']],
	['the Chat Model, streamed', chatModel(stream), 'Hello there', ['POST /v1/chat/completions']],
	['the Embeddings', embeddings, '2', ['POST /v1/embeddings']],
];

const lowerCased = (headers: Record<string, string>) =>
	Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

describe('every kind of request carries the Extra Headers', () => {
	test.each(places)('%s', async (_name, place, answer, sent) => {
		expect(await place(service().baseUrl, credentialWith(HEADERS))).toEqual({ text: answer });
		const requests: RecordedRequest[] = await service().requests();
		// Sorted: the credential test asks the models and the balance endpoints at the same time.
		expect(requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual(
			[...sent].sort(),
		);
		for (const request of requests) {
			expect(request.headers).toMatchObject(lowerCased(HEADERS));
			// The key and the JSON body are the package's, whatever Extra Headers say.
			expect(request.headers.authorization).toMatch(/^Bearer sk-example-/);
			if (request.method === 'POST')
				expect(request.headers['content-type']).toBe('application/json');
		}
	});

	test('an empty field sends none', async () => {
		expect(await chatCompletion(false)(service().baseUrl, { extraHeaders: '' })).toEqual({
			text: 'Hello there',
		});
		const [request] = await service().requests();
		expect(Object.keys(request.headers).filter((name) => name.startsWith('x-'))).toEqual([]);
	});
});

/** Extra Headers the credential refuses, the message (after "Extra Headers in the credential ") and the fix. */
const refusals: Array<[string, string, string, RegExp]> = [
	[
		'Authorization',
		JSON.stringify({ Authorization: 'Bearer sk-example-other' }),
		'cannot set Authorization: the API Key field is sent as Authorization: Bearer <key>',
		/Remove Authorization from Extra Headers/,
	],
	[
		'Content-Type in lower case',
		JSON.stringify({ 'content-type': 'text/plain' }),
		'cannot set content-type: every request body is JSON (application/json)',
		/Remove content-type from Extra Headers/,
	],
	[
		'a name with a space',
		JSON.stringify({ 'X Title': 'My workflow' }),
		'has a header name that is not valid: "X Title" (" " cannot be in a header name)',
		/Write it as "X-Title"\. A header name \(RFC 7230 token\) is one word of letters, digits and -/,
	],
	[
		'a name with a value pasted in it',
		JSON.stringify({ [`${SECRET_HEADER}: ${SECRET_VALUE}`]: '' }),
		`has a header name that is not valid: ":" after "${SECRET_HEADER}"`,
		/its value goes after the colon/,
	],
	[
		'a CR/LF in a value',
		JSON.stringify({ [SECRET_HEADER]: `${SECRET_VALUE}\r\nX-Injected: yes` }),
		`gives ${SECRET_HEADER} a value with a line break`,
		/on one line/,
	],
	[
		'a value that is not text',
		JSON.stringify({ 'X-Retries': 3 }),
		'gives X-Retries a value that is not text',
		/in quotes, e.g. \{"X-Retries": "1"\}/,
	],
	[
		'JSON that does not parse',
		`{"${SECRET_HEADER}": "${SECRET_VALUE}`,
		'is not valid JSON',
		/a JSON object of header names and text values, e\.g\. \{"X-Title": "My workflow"\}; or leave it empty/,
	],
	['an array', '["X-Title"]', 'is not a JSON object', /an object of header names/],
];

describe('Extra Headers that cannot be sent are refused before any request, naming the header and the fix', () => {
	test.each(refusals)('%s', async (_name, extraHeaders, message, fix) => {
		for (const [where, place] of places) {
			const outcome = await expectNoLeak(SECRET_VALUE, () =>
				place(service().baseUrl, { extraHeaders }),
			);
			expect({ where, error: outcome.error }).toEqual({
				where,
				error: expect.stringContaining(`Extra Headers in the credential ${message}`),
			});
			expect(outcome.error).toMatch(fix);
		}
		expect(await service().requests()).toEqual([]);
	});
});

test('under On Error: Continue, refused Extra Headers fail every item with their words, on either output, and nothing is sent', async () => {
	const refused = credentialWith({ 'Content-Length': '42', [SECRET_HEADER]: SECRET_VALUE });
	const message =
		"Extra Headers in the credential cannot set Content-Length: the length of each request body is counted when it is sent (n8n's transport sets it for each request)";
	const outcomes = await expectNoLeak(SECRET_VALUE, async () => {
		const engine = engineWith(keys.default, service().baseUrl, refused);
		const run = async (onError: 'continueRegularOutput' | 'continueErrorOutput') =>
			await engine.runNode({
				type: NODE_TYPE,
				parameters: simpleParameters('={{ $json.q }}', 'echo-1'),
				items: jsonItems({ q: 'first' }, { q: 'second' }),
				settings: { onError },
			});
		return {
			regular: await run('continueRegularOutput'),
			routed: await run('continueErrorOutput'),
		};
	});
	const { regular, routed } = outcomes;
	expect(regular.status).toBe('success');
	expect(regular.outputs[0].map((item) => [item.json.error, item.pairedItem])).toEqual([
		[`${message} (item 0)`, { item: 0 }],
		[`${message} (item 1)`, { item: 1 }],
	]);
	expect(routed.outputs[0]).toEqual([]);
	expect(routed.outputs[1].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	expect(routed.outputs[1][0].error).toMatchObject({
		description: expect.stringMatching(/Remove Content-Length from Extra Headers/),
	});
	expect(await service().requests()).toEqual([]);
});

describe('a value never shows', () => {
	const secretHeaders = credentialWith({ [SECRET_HEADER]: SECRET_VALUE });

	test.each(places)('%s, when the key is refused (401)', async (_name, place) => {
		const outcome = await expectNoLeak(SECRET_VALUE, () =>
			place(service().baseUrl, secretHeaders, 'sk-example-wrong'),
		);
		expect(outcome.error).toMatch(/API key/);
		for (const request of await service().requests())
			expect(request.headers[SECRET_HEADER.toLowerCase()]).toBe(SECRET_VALUE);
	});

	test.each(places)('%s, when nothing listens', async (_name, place) => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
		const outcome = await expectNoLeak(SECRET_VALUE, () => place(baseUrl, secretHeaders));
		expect(outcome.error).toMatch(/refused the connection/);
	});

	/** What the leaky gateway answers quotes the whole value it was sent (the key's pieces are the key's test). */
	const quotingWhole = Object.keys(leakyAnswers).filter(
		(model) => !/first|middle|last/.test(model),
	);

	test.each(quotingWhole)('a gateway that quotes it: %s', async (model) => {
		const baseUrl = `${leaky()}/v1`;
		const engine = engineWith(keys.default, baseUrl, secretHeaders);
		const runs = await expectNoLeak(SECRET_VALUE, async () => {
			const results = [];
			for (const settings of [{}, { onError: 'continueRegularOutput' as const }]) {
				results.push(
					await engine.runNode({
						type: NODE_TYPE,
						parameters: simpleParameters('Hello', model, {
							options: { stream: model.includes('stream'), ...QUICK_RETRIES },
						}),
						items: jsonItems({}),
						settings,
					}),
				);
			}
			return results;
		});
		expect(runs.map((run) => run.status)).toEqual(['error', 'success']);
	});

	test('a gateway that quotes it: the user reads which header it quoted', async () => {
		const outcome = await chatCompletion(false)(`${leaky()}/v1`, secretHeaders);
		expect(outcome.error).toContain(`Incorrect API key provided: [${SECRET_HEADER} value]`);
	});

	test('a gateway that quotes a value that looks like a key, under a name that says nothing of secrets: hidden too', async () => {
		const outcome = await expectNoLeak(KEYLIKE_VALUE, () =>
			chatCompletion(false)(
				`${keylike()}/v1`,
				credentialWith({ 'X-Session': KEYLIKE_VALUE, ...ROUTING }),
			),
		);
		expect(outcome.error).toContain('Incorrect API key provided: [X-Session value]');
	});

	test('a gateway that quotes it: the model list, the credential test and the Chat Model', async () => {
		const baseUrl = `${leaky()}/v1`;
		for (const place of [modelList, credentialTest, chatModel(invoke), chatModel(stream)]) {
			const outcome = await expectNoLeak(SECRET_VALUE, () => place(baseUrl, secretHeaders));
			expect(outcome.error).toContain(`[${SECRET_HEADER} value]`);
		}
	});

	test("values that carry no secret show as they are in the service's words, not replaced inside other words", async () => {
		const outcome = await chatCompletion(false)(
			`${routing()}/v1`,
			credentialWith({ ...ROUTING, [SECRET_HEADER]: SECRET_VALUE }),
		);
		expect(outcome.error).toContain('Incorrect API key provided: openai');
		expect(outcome.error).not.toContain('[x-portkey-provider value]');
	});

	test("the capture saw n8n's debug log of the runs above, so their checks could fail", () => {
		expect(capturedLog()).toContain('Running node "Chat Completion" started');
	});
});
