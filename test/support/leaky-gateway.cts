/**
 * A small gateway that quotes the API key it receives in every way a real one might: in an error's message,
 * type and code, in text and HTML bodies, in tool-call arguments, inside a stream. For tests that the key
 * never shows (test/node/secrets.test.cts, test/node/chat-model-secrets.test.cts).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the gateway answers: a status, a content type (JSON unless given), headers and the body as sent. */
export interface Answer {
	status: number;
	type?: string;
	headers?: Record<string, string>;
	body: string;
}

/** An answer made from the key the gateway was sent. */
export type LeakyAnswer = (key: string) => Answer;

/** What the gateway answers to a chat request for each model, quoting the key it was sent: failures all. */
export const leakyAnswers: Record<string, LeakyAnswer> = {
	'leak-401': (key) =>
		errorJson(401, { message: `Incorrect API key provided: ${key}`, code: 'invalid_api_key' }),
	'leak-401-first-20': (key) =>
		errorJson(401, {
			message: `Incorrect API key provided: ${key.slice(0, 20)}**********`,
			code: 'invalid_api_key',
		}),
	'leak-403-middle-9': (key) =>
		errorJson(403, {
			message: `Key …${key.slice(12, 21)}… may not call this model`,
			code: 'model_not_found',
		}),
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
	'leak-tool-arguments': (key) =>
		completion('leak-tool-arguments', {
			role: 'assistant',
			content: null,
			tool_calls: [
				{ id: 'call_1', type: 'function', function: { name: 'f', arguments: `{${key}` } },
			],
		}),
	'leak-stream-error': (key) => ({
		status: 200,
		type: 'text/event-stream',
		body: `data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"Stream broke for ${key}"}}\n\n`,
	}),
};

/** A 200 chat completion of `message`, finished as a tool call when it makes one. */
export function completion(model: string, message: Record<string, unknown>): Answer {
	const finish = message.tool_calls === undefined ? 'stop' : 'tool_calls';
	return {
		status: 200,
		body: JSON.stringify({
			id: 'c1',
			model,
			choices: [{ index: 0, message, finish_reason: finish }],
		}),
	};
}

export function errorJson(status: number, error: Record<string, string>): Answer {
	return { status, body: JSON.stringify({ error: { type: 'invalid_request_error', ...error } }) };
}

async function readAll(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET /v1/models: 401 quoting the key; GET /text/v1/models: 200 with a text body quoting it; any other GET (the
 * balance endpoints): 401 quoting the key; chat: per model (a 401 for others). The key is the value of the header `quoted` (Authorization's without `Bearer `).
 */
async function answer(
	answers: Record<string, LeakyAnswer>,
	quoted: string,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	const key = String(request.headers[quoted] ?? '').replace(/^Bearer /, '');
	const text = await readAll(request);
	let reply: Answer;
	if (request.url === '/v1/models') reply = leakyAnswers['leak-401'](key);
	else if (request.url === '/text/v1/models')
		reply = { status: 200, type: 'text/plain', body: `No list for ${key}` };
	else if (request.method === 'GET') reply = leakyAnswers['leak-401'](key);
	else
		reply = (answers[(JSON.parse(text) as { model: string }).model] ?? leakyAnswers['leak-401'])(
			key,
		);
	response.writeHead(reply.status, {
		'Content-Type': reply.type ?? 'application/json',
		...reply.headers,
	});
	response.end(reply.body);
}

/**
 * For a test file: the gateway on a free loopback port for all its tests, answering chat requests from
 * `answers` by model, quoting the value of the header `quoted` (lower-case; the key unless given). Returns a
 * getter of its origin (`http://127.0.0.1:PORT`), known once `beforeAll` ran.
 */
export function useLeakyGateway(
	answers: Record<string, LeakyAnswer> = leakyAnswers,
	quoted = 'authorization',
): () => string {
	let server: Server | undefined;
	let origin = '';
	beforeAll(async () => {
		server = createServer((request, response) => void answer(answers, quoted, request, response));
		await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server?.closeAllConnections();
		await new Promise((resolve) => server?.close(resolve));
	});
	return () => {
		if (origin === '') throw new Error('useLeakyGateway(): the gateway starts in beforeAll');
		return origin;
	};
}
