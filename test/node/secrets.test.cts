/**
 * The API key never shows: every error path runs with a recognisable key, and neither the key nor its
 * hidden middle (what the mask `sk-…5b4a` leaves out) may appear in an output item, an error item, the
 * run's error, a thrown error, or any line n8n logs at debug level. A small gateway in this file quotes
 * the key it receives in every way a real one might; the local service covers its own error paths.
 */
import '../support/debug-log.cts';

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import type { INodeParameters, NodeParameterValue } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import type { RunNodeResult } from '../../dev/n8n-core/harness.cts';
import { closedPort, keys, useLocalService, faultModels } from '../support/service.cts';

const SECRET = 'sk-example-SECRET-9f8e7d6c5b4a';
const service = useLocalService();
/** Retries happen, but short: no wait beyond this many ms in all. */
const quickRetries = { maxRetryWait: 300, maxRateLimitWait: 300 };

type Answer = { status: number; type?: string; headers?: Record<string, string>; body: string };

/** What the leaky gateway answers to a chat request for each model, quoting the key it was sent. */
const leakyAnswers: Record<string, (key: string) => Answer> = {
	'leak-401': (key) =>
		errorJson(401, { message: `Incorrect API key provided: ${key}`, code: 'invalid_api_key' }),
	'leak-401-first-20': (key) =>
		errorJson(401, { message: `Incorrect API key provided: ${key.slice(0, 20)}**********`, code: 'invalid_api_key' }),
	'leak-403-middle-9': (key) =>
		errorJson(403, { message: `Key …${key.slice(12, 21)}… may not call this model`, code: 'model_not_found' }),
	'leak-429-last-8': (key) => ({
		status: 429,
		headers: { 'Retry-After': '0' },
		body: JSON.stringify({ error: { message: `Slow down, key ending ${key.slice(-8)}` } }),
	}),
	'leak-403-model': (key) =>
		errorJson(403, { message: `Key ${key} may not call this model`, code: 'model_not_found' }),
	'leak-400-type-and-code': (key) =>
		errorJson(400, { message: `Bad request from ${key}`, type: key, code: key }),
	'leak-402-text': (key) => ({
		status: 402,
		type: 'text/plain',
		body: `Insufficient balance on ${key}`,
	}),
	'leak-404-text': (key) => ({ status: 404, type: 'text/plain', body: `No route for ${key}` }),
	'leak-429-retried': (key) => ({
		status: 429,
		headers: { 'Retry-After': '0' },
		body: JSON.stringify({ error: `Slow down, ${key}` }),
	}),
	'leak-500-two-json': (key) => ({
		status: 500,
		headers: { 'Retry-After': '0' },
		body: `{"error":{"message":"first ${key}"}}{"error":{"message":"second ${key}"}}`,
	}),
	'leak-502-html': (key) => ({
		status: 502,
		type: 'text/html',
		headers: { 'Retry-After': '0' },
		body: `<html><head><title>502 Bad Gateway for ${key}</title></head><body>${key}</body></html>`,
	}),
	'leak-200-error': (key) =>
		errorJson(200, { message: `Upstream refused ${key}`, code: 'upstream_error' }),
	'leak-200-not-json': (key) => ({ status: 200, type: 'text/plain', body: `Hello ${key}` }),
	'leak-tool-arguments': (key) => ({
		status: 200,
		body: JSON.stringify({
			id: 'c1',
			model: 'leak-tool-arguments',
			choices: [
				{
					index: 0,
					message: {
						role: 'assistant',
						content: null,
						tool_calls: [
							{ id: 'call_1', type: 'function', function: { name: 'f', arguments: `{${key}` } },
						],
					},
					finish_reason: 'tool_calls',
				},
			],
		}),
	}),
	'leak-stream-error': (key) => ({
		status: 200,
		type: 'text/event-stream',
		body: `data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"Stream broke for ${key}"}}\n\n`,
	}),
};

function errorJson(status: number, error: Record<string, string>): Answer {
	return { status, body: JSON.stringify({ error: { type: 'invalid_request_error', ...error } }) };
}

async function readAll(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** GET /v1/models: 401 quoting the key; GET /text/v1/models: 200 with a text body quoting it; chat: per model. */
async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
	const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
	const text = await readAll(request);
	let reply: Answer;
	if (request.url === '/v1/models') reply = leakyAnswers['leak-401'](key);
	else if (request.url === '/text/v1/models')
		reply = { status: 200, type: 'text/plain', body: `No list for ${key}` };
	else
		reply = (
			leakyAnswers[(JSON.parse(text) as { model: string }).model] ?? leakyAnswers['leak-401']
		)(key);
	response.writeHead(reply.status, {
		'Content-Type': reply.type ?? 'application/json',
		...reply.headers,
	});
	response.end(reply.body);
}

let leaky: Server;
let leakyUrl = '';
beforeAll(async () => {
	leaky = createServer((request, response) => void answer(request, response));
	await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
	leakyUrl = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}`;
});
afterAll(async () => {
	leaky.closeAllConnections();
	await new Promise((resolve) => leaky.close(resolve));
});

/** Everything written while capturing; kept for the whole file, to show that the capture saw n8n's log. */
let wholeLog = '';

const asText = (value: unknown) =>
	typeof value === 'string'
		? value
		: value instanceof Uint8Array
			? Buffer.from(value).toString('utf8')
			: inspect(value, { depth: null });

/** Replaces stdout, stderr and the console's methods (and its own streams, where n8n's logger writes) with a recorder. */
function startCapture(): () => string {
	const lines: string[] = [];
	const restore: Array<() => void> = [];
	const replace = (target: object | undefined, name: string) => {
		if (target === undefined) return;
		const holder = target as Record<string, unknown>;
		const original = holder[name];
		holder[name] = (...args: unknown[]) => {
			lines.push(args.map(asText).join(' '));
			return true;
		};
		restore.push(() => (holder[name] = original));
	};
	const { _stdout, _stderr } = console as unknown as Record<string, object | undefined>;
	for (const stream of new Set([process.stdout, process.stderr, _stdout, _stderr]))
		replace(stream, 'write');
	for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) replace(console, method);
	return () => {
		for (const undo of restore.reverse()) undo();
		const log = lines.join('\n');
		wholeLog += log;
		return log;
	};
}

/** Every field of a value, errors' hidden ones too (message, stack, description, cause …). */
const reveal = (value: unknown) =>
	inspect(value, {
		depth: null,
		showHidden: true,
		maxArrayLength: null,
		maxStringLength: null,
		breakLength: Infinity,
	});

/** What `sk-example-` keys share: a quote of it alone tells nothing of the key. */
const SHARED_PREFIX = 'sk-example-';

/**
 * The pieces of a key that must never show: its middle (what the mask `sk-…5b4a` leaves out) and every 8
 * characters of the key in a row that are not all of the prefix every example key shares, as written and
 * as escaped in JSON.
 */
function hiddenParts(apiKey: string): string[] {
	const middle = apiKey.slice(3, -4);
	const pieces = [middle];
	for (let at = 0; at + 8 <= apiKey.length; at++) {
		if (at + 8 > SHARED_PREFIX.length || !apiKey.startsWith(SHARED_PREFIX)) pieces.push(apiKey.slice(at, at + 8));
	}
	return [...new Set(pieces.flatMap((piece) => [piece, JSON.stringify(piece).slice(1, -1)]))];
}

function expectHidden(apiKey: string, where: string, text: string): void {
	for (const part of hiddenParts(apiKey)) {
		const at = text.indexOf(part);
		if (at >= 0)
			throw new Error(
				`The key shows in ${where}: …${text.slice(Math.max(0, at - 200), at + 100)}…`,
			);
	}
}

/** Runs `action` with the console captured; asserts that the key shows neither in what it produced nor in the log. */
async function expectNoLeak<T>(apiKey: string, action: () => Promise<T>): Promise<T> {
	const stop = startCapture();
	let produced: T;
	try {
		produced = await action();
	} finally {
		expectHidden(apiKey, 'the log', stop());
	}
	expectHidden(apiKey, 'the result', reveal(produced));
	return produced;
}

/** The error the model list fails with (it must not load). */
const failedModelList = (apiKey: string, baseUrl: string) =>
	engineWith(apiKey, baseUrl)
		.listSearch({ type: NODE_TYPE, method: 'searchModels' })
		.then(
			() => {
				throw new Error('The model list loaded');
			},
			(error: unknown) => error,
		);

async function failedCredentialTest(apiKey: string, baseUrl: string) {
	const result = await engineWith(apiKey, baseUrl).credentialTest({
		type: NODE_TYPE,
		method: 'testChatCompletionsApi',
		credentialType: 'chatCompletionsApi',
		data: { apiKey, baseUrl },
	});
	expect(result.status).toBe('Error');
	return result;
}

/** The model list and the credential test, each with the console captured. */
async function expectListAndTestHideKey(apiKey: string, baseUrl: string): Promise<void> {
	await expectNoLeak(apiKey, () => failedModelList(apiKey, baseUrl));
	await expectNoLeak(apiKey, () => failedCredentialTest(apiKey, baseUrl));
}

const onErrorSettings = [
	{},
	{ onError: 'continueRegularOutput' },
	{ onError: 'continueErrorOutput' },
] as const;

/** Runs one item once per On Error setting (each an error path: Stop Workflow fails the run); returns every run. */
async function runEveryWay(
	apiKey: string,
	baseUrl: string,
	parameters: INodeParameters,
): Promise<RunNodeResult[]> {
	const runs = [];
	for (const settings of onErrorSettings) {
		runs.push(
			await engineWith(apiKey, baseUrl).runNode({
				type: NODE_TYPE,
				parameters,
				items: jsonItems({}),
				settings,
			}),
		);
	}
	expect(runs[0].status).toBe('error');
	return runs;
}

const chat = (model: string, options: Record<string, NodeParameterValue> = {}) =>
	simpleParameters('Hello', model, { options: { ...quickRetries, ...options } });

describe('the check itself', () => {
	test('sees the key in the capture and in a result when it is there', async () => {
		const stop = startCapture();
		console.log(`a log line with ${SECRET}`);
		process.stderr.write(`a stderr line with ${SECRET}\n`);
		const log = stop();
		expect(() => expectHidden(SECRET, 'the log', log)).toThrow(/The key shows in the log/);
		expect(log.split(SECRET)).toHaveLength(3);
		const body = await (
			await fetch(`${leakyUrl}/v1/models`, { headers: { Authorization: `Bearer ${SECRET}` } })
		).text();
		expect(() => expectHidden(SECRET, 'the result', reveal(new Error(body)))).toThrow(
			/The key shows in the result/,
		);
	});
});

describe('a gateway that quotes the key: no output, error or log line shows it', () => {
	test.each(Object.keys(leakyAnswers))('%s, with every On Error setting', async (model) => {
		const stream = model.includes('stream');
		const runs = await expectNoLeak(SECRET, () =>
			runEveryWay(SECRET, `${leakyUrl}/v1`, chat(model, stream ? { stream: true } : {})),
		);
		expect(runs.map((run) => run.status)).toEqual(['error', 'success', 'success']);
	});

	test('the model list and the credential test', async () => {
		await expectListAndTestHideKey(SECRET, `${leakyUrl}/v1`);
		await expectListAndTestHideKey(SECRET, `${leakyUrl}/text/v1`);
	});
});

describe('the local service and the network: no output, error or log line shows the key', () => {
	test('a wrong key, with every On Error setting, the model list and the credential test', async () => {
		await expectNoLeak(SECRET, () => runEveryWay(SECRET, service().baseUrl, chat('echo-1')));
		await expectListAndTestHideKey(SECRET, service().baseUrl);
	});

	test.each([
		...faultModels.map((model) => [model, keys.faults]),
		['echo-1', keys.expired],
		['echo-1', keys.broke],
		['echo-pro', keys.default],
	])('%s with the key %s', async (model, apiKey) => {
		await expectNoLeak(apiKey, () => runEveryWay(apiKey, service().baseUrl, chat(model)));
	});

	test.each([
		['a connection reset', { reset: true }, {}],
		['a timeout', { slow_ms: 1000 }, { timeout: 200 }],
	])('%s', async (_name, knobs, options) => {
		const parameters = chat('echo-1', {
			extraBody: JSON.stringify({ x_local: knobs }),
			...options,
		});
		await expectNoLeak(keys.default, () =>
			runEveryWay(keys.default, service().baseUrl, parameters),
		);
	});

	test('connection refused: the run, the model list and the credential test', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
		await expectNoLeak(SECRET, () => runEveryWay(SECRET, baseUrl, chat('echo-1')));
		await expectListAndTestHideKey(SECRET, baseUrl);
	});

	test('bad input and a bad credential', async () => {
		for (const options of [{ temperature: 3 }, { extraBody: '{seed: 7}' }]) {
			await expectNoLeak(SECRET, () =>
				runEveryWay(SECRET, service().baseUrl, chat('echo-1', options)),
			);
		}
		await expectNoLeak(SECRET, () => runEveryWay(SECRET, 'localhost/v1', chat('echo-1')));
		const withLineBreak = `${SECRET.slice(0, 18)}\n${SECRET.slice(18)}`;
		await expectNoLeak(withLineBreak, () =>
			runEveryWay(withLineBreak, service().baseUrl, chat('echo-1')),
		);
		expect(await service().requests()).toEqual([]);
	});
});

describe('the capture', () => {
	test("saw n8n's debug log of the runs above, so their checks could fail", () => {
		expect(wholeLog).toContain('Running node "Chat Completion" started');
	});
});
