/**
 * A streamed reply opened (openReply) and read (readCompletion) through n8n-core's real request helper (the engine harness) against a loopback server
 * that cuts its bytes where the test says, stalls, breaks the connection or answers with errors.
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import type { Completion } from '../../engine/protocol';
import { readCompletion } from '../../engine/reply/read-completion';
import { openReply } from '../../engine/transport/http';
import { chooseRoute } from '../../engine/transport/route';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Engine } from '../../dev/n8n-core/harness.cts';
import { chunk, sse } from '../support/sse.cts';

interface Outcome {
	completion?: Completion;
	error?: {
		name: string;
		message: string;
		code?: string;
		status?: number;
		serviceMessage?: string;
		bodyKind?: string;
		cut?: string;
		partialContent?: string;
	};
	deltas: string[];
	/** Milliseconds from the request to the outcome. */
	elapsed: number;
}

/** Set by a test: called with each delta as readCompletion hands it on. */
let onDelta: ((delta: string) => void) | undefined;
/** What the probe node saw last, also when n8n drops the node's output (a cancelled run). */
let outcome: Outcome | undefined;

/** A node that only opens and reads a streamed reply, so the transport is tested through n8n's own helper. */
class StreamProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stream Probe',
		name: 'streamProbe',
		group: ['transform'],
		version: 1,
		description: 'Opens and reads a streamed reply',
		defaults: { name: 'Stream Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'chatCompletionsApi', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/chat/completions' },
			{ displayName: 'Timeout', name: 'timeout', type: 'number', default: 5000 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('chatCompletionsApi');
		const started = Date.now();
		const deltas: string[] = [];
		try {
			const completion = await readCompletion(
				await openReply(await chooseRoute(this, { baseUrl }), {
					method: 'POST',
					url: `${baseUrl}${this.getNodeParameter('path', 0) as string}`,
					body: { model: 'echo-1', messages: [{ role: 'user', content: 'Hi' }], stream: true },
					timeout: this.getNodeParameter('timeout', 0) as number,
					stream: true,
				}),
				true,
				(delta) => {
					deltas.push(delta);
					onDelta?.(delta);
				},
			);
			outcome = { completion, deltas, elapsed: Date.now() - started };
		} catch (caught) {
			const { name, message, code, status, serviceMessage, bodyKind, cut, partialContent } =
				caught as Record<string, never>;
			outcome = {
				error: { name, message, code, status, serviceMessage, bodyKind, cut, partialContent },
				deltas,
				elapsed: Date.now() - started,
			};
		}
		return [[{ json: outcome as unknown as IDataObject, pairedItem: { item: 0 } }]];
	}
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const answer = [
	chunk({ role: 'assistant', content: '' }),
	chunk({ content: 'Grüße ' }),
	chunk({ content: 'aus 東京 🗼' }),
	chunk({}, { finish_reason: 'stop' }),
];
const answerBytes = Buffer.from(sse(answer));
const completionJson = {
	id: 'chatcmpl-1',
	object: 'chat.completion',
	created: 1_700_000_000,
	model: 'echo-1',
	choices: [
		{
			index: 0,
			message: { role: 'assistant', content: 'Grüße aus 東京 🗼' },
			finish_reason: 'stop',
		},
	],
};

/** Where to cut the answer: inside ü, inside 東 and inside 🗼, each piece its own network write. */
function cutsInsideCharacters(): number[] {
	const text = answerBytes.toString('latin1');
	return ['ü', '東', '🗼'].map(
		(character) => text.indexOf(Buffer.from(character).toString('latin1')) + 1,
	);
}

const routes: Record<string, (res: ServerResponse) => Promise<void> | void> = {
	async '/chat/completions'(res) {
		res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
		let start = 0;
		for (const end of [...cutsInsideCharacters(), answerBytes.length]) {
			res.write(answerBytes.subarray(start, end));
			start = end;
			await wait(20);
		}
		res.end();
	},
	async '/after-first-delta'(res) {
		// The rest is sent only once the node has handed on the first delta: proof that it streams.
		const seen = new Promise<void>((resolve) => (onDelta = () => resolve()));
		res.writeHead(200, { 'content-type': 'text/event-stream' });
		res.write(sse(answer.slice(0, 2), { done: false }));
		await seen;
		res.end(sse(answer.slice(2)));
	},
	'/html-502'(res) {
		res.writeHead(502, { 'content-type': 'text/html' });
		res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
	},
	'/json-429'(res) {
		res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1.5' });
		res.end(
			'{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}',
		);
	},
	'/ignores-stream'(res) {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(completionJson));
	},
	'/json-labelled-sse'(res) {
		res.writeHead(200, { 'content-type': 'text/event-stream' });
		res.end(
			'\n{"error":{"message":"No available channel","type":"new_api_error","code":"model_not_found"}}',
		);
	},
	'/error-chunk'(res) {
		res.writeHead(200, { 'content-type': 'text/event-stream' });
		res.end(
			sse([answer[1], { error: { message: 'upstream overloaded', code: 'upstream_error' } }]),
		);
	},
	'/truncated'(res) {
		res.writeHead(200, { 'content-type': 'text/event-stream' });
		res.end(sse(answer.slice(0, 2), { done: false }));
	},
	async '/stall'(res) {
		res.writeHead(200, { 'content-type': 'text/event-stream' });
		res.write(sse(answer.slice(0, 2), { done: false }));
		await new Promise((resolve) => res.on('close', resolve));
	},
	async '/reset'(res) {
		res.writeHead(200, { 'content-type': 'text/event-stream' });
		res.write(sse(answer.slice(0, 2), { done: false }));
		await wait(50);
		res.socket?.destroy();
	},
};

let baseUrl: string;
let engine: Engine;
let closed: Array<() => void> = [];
const server = createServer(async (req, res) => {
	res.on('close', () => closed.forEach((notify) => notify()));
	for await (const _piece of req);
	await routes[new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/^\/v1/, '')](res);
});

beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	engine = createEngine({
		nodeTypes: { streamProbe: new StreamProbe() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey: 'sk-example-stream', baseUrl } },
	});
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
	onDelta = undefined;
	outcome = undefined;
	closed = [];
});

async function probe(path: string, timeout = 5000): Promise<Outcome> {
	const { status } = await engine.runNode({ type: 'streamProbe', parameters: { path, timeout } });
	expect(status).toBe('success');
	return outcome as Outcome;
}

describe("a streamed reply through n8n's request helper", () => {
	test('assembles the events; characters cut between network writes arrive whole', async () => {
		expect(cutsInsideCharacters()).toHaveLength(3);
		const { completion, deltas, error } = await probe('/chat/completions');
		expect(error).toBeUndefined();
		expect(completion).toEqual(completionJson);
		expect(deltas.join('')).toBe('Grüße aus 東京 🗼');
		expect(deltas.join('')).not.toContain('\uFFFD');
	});

	test('hands on each delta as it arrives, before the rest of the body', async () => {
		const { completion, deltas } = await probe('/after-first-delta');
		expect(deltas).toEqual(['Grüße ', 'aus 東京 🗼']);
		expect(completion?.choices[0].message?.content).toBe('Grüße aus 東京 🗼');
	});

	test.each([
		[
			'an HTML error page',
			'/html-502',
			{ name: 'ServiceError', status: 502, bodyKind: 'html', serviceMessage: '502 Bad Gateway' },
		],
		[
			'a JSON error',
			'/json-429',
			{ name: 'ServiceError', status: 429, bodyKind: 'json', serviceMessage: 'Rate limit reached' },
		],
		[
			'a JSON error labelled as an event stream',
			'/json-labelled-sse',
			{ name: 'ServiceError', status: 200, serviceMessage: 'No available channel' },
		],
		[
			'an error chunk mid-stream',
			'/error-chunk',
			{ name: 'ServiceError', status: 200, serviceMessage: 'upstream overloaded' },
		],
		[
			'a stream that ends before the reply is complete',
			'/truncated',
			{ name: 'IncompleteReplyError' },
		],
		// The reply began: it is incomplete (the text so far kept), not a connection that failed to answer.
		[
			'a connection broken mid-stream',
			'/reset',
			{ name: 'IncompleteReplyError', cut: 'connection', partialContent: 'Grüße ' },
		],
	])('%s throws what describeProblem maps', async (_name, path, expected) => {
		expect((await probe(path)).error).toMatchObject(expected);
	});

	test('a JSON reply to a stream request (the service ignored stream: true) is read as a whole', async () => {
		expect((await probe('/ignores-stream')).completion).toEqual(completionJson);
	});

	test('no bytes for the timeout: the reply stops there, soon after the timeout; the connection is closed', async () => {
		const connectionClosed = new Promise<void>((resolve) => closed.push(resolve));
		const { error, deltas, elapsed } = await probe('/stall', 300);
		expect(error).toMatchObject({
			name: 'IncompleteReplyError',
			cut: 'silence',
			partialContent: 'Grüße ',
		});
		expect((error as Error).message).toMatch(
			/^The stream stopped: nothing more came within the Timeout of 300 ms, after \d+ characters of the reply$/,
		);
		expect(deltas).toEqual(['Grüße ']);
		expect(elapsed).toBeGreaterThanOrEqual(300);
		expect(elapsed).toBeLessThan(2000);
		await connectionClosed;
	});

	test('a cancelled execution stops the stream at once and closes the connection', async () => {
		const connectionClosed = new Promise<void>((resolve) => closed.push(resolve));
		const controller = new AbortController();
		onDelta = () => controller.abort();
		const started = Date.now();
		const { status } = await engine.runNode({
			type: 'streamProbe',
			parameters: { path: '/stall', timeout: 60_000 },
			signal: controller.signal,
		});
		expect(status).toBe('canceled');
		expect(Date.now() - started).toBeLessThan(2000);
		expect(outcome?.error).toMatchObject({ name: 'NetworkError', code: 'ERR_CANCELED' });
		await connectionClosed;
	});
});
