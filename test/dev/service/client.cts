/** Small HTTP helpers for the local-service tests. */
import { request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { startService, type LocalService } from '../../support/service.cts';

/** Runs `run` against a service started with `args`, and stops the service after. */
export async function withService(
	args: string[],
	run: (service: LocalService) => Promise<void>,
): Promise<void> {
	const service = await startService({ args });
	try {
		await run(service);
	} finally {
		await service.stop();
	}
}

/** Waits until the service counts `count` requests of the limited key in flight (a fixed sleep fails on a loaded machine). */
export async function inFlightReaches(service: LocalService, count: number): Promise<void> {
	while ((await service.traffic()).limited.inFlight < count) await delay(5);
}

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	/** The body's bytes (audio, images). */
	bytes: Buffer;
	/** The body parsed as JSON (undefined when it is not JSON). */
	json: any;
}

async function reply(response: Response): Promise<Reply> {
	const bytes = Buffer.from(await response.arrayBuffer());
	const text = bytes.toString('utf8');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, bytes, json };
}

/** The service's 400 for a request it refuses: the message matching `message`, naming `param`, with `code` (any string when not given). */
export function expectInvalidRequest(
	reply: Reply,
	param: string,
	message: RegExp,
	code: unknown = expect.any(String),
): void {
	expect(reply.status).toBe(400);
	expect(reply.json.error).toEqual({
		message: expect.stringMatching(message),
		type: 'invalid_request_error',
		param,
		code,
	});
}

/** The service's refusal of a model the endpoint does not serve: `status`, its message, `model_not_supported`. */
export function expectModelRefused(reply: Reply, status: number, message: string): void {
	expect(reply.status).toBe(status);
	expect(reply.json.error).toMatchObject({ message, code: 'model_not_supported' });
}

export async function send(url: string, init: RequestInit = {}): Promise<Reply> {
	return reply(await fetch(url, init));
}

export function getModels(service: LocalService, key: string): Promise<Reply> {
	return send(`${service.baseUrl}/models`, { headers: { Authorization: `Bearer ${key}` } });
}

export function chat(
	service: LocalService,
	key: string,
	body: unknown,
	signal?: AbortSignal,
): Promise<Reply> {
	return send(`${service.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
		signal,
	});
}

/** POST `body` as JSON to `path` under the service's Base URL, with `key`. */
function post(service: LocalService, path: string, key: string, body: unknown): Promise<Reply> {
	return send(`${service.baseUrl}${path}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
}

export function embed(service: LocalService, key: string, body: unknown): Promise<Reply> {
	return post(service, '/embeddings', key, body);
}

export function rerank(service: LocalService, key: string, body: unknown): Promise<Reply> {
	return post(service, '/rerank', key, body);
}

export function generateImages(service: LocalService, key: string, body: unknown): Promise<Reply> {
	return post(service, '/images/generations', key, body);
}

export function speak(service: LocalService, key: string, body: unknown): Promise<Reply> {
	return post(service, '/audio/speech', key, body);
}

/** POST `form` as multipart/form-data (fetch sets the boundary) to `path` under the service's Base URL, with `key`. */
export function postForm(
	service: LocalService,
	path: string,
	key: string,
	form: FormData,
	headers: Record<string, string> = {},
): Promise<Reply> {
	return send(`${service.baseUrl}${path}`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${key}`, ...headers },
		body: form,
	});
}

/** A form of text fields and files (`[name, bytes, filename, type]`), in the order given. */
export function formOf(
	fields: Record<string, string>,
	files: Array<[name: string, bytes: Buffer, filename: string, type: string]> = [],
): FormData {
	const form = new FormData();
	for (const [name, bytes, filename, type] of files) {
		form.append(name, new Blob([bytes], { type }), filename);
	}
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	return form;
}

/** The `data:` payloads of an SSE body, in order. */
export function sseData(text: string): string[] {
	return text
		.split('\n')
		.filter((line) => line.startsWith('data: '))
		.map((line) => line.slice('data: '.length));
}

export const hello = [{ role: 'user', content: 'Hello there, world' }];

export interface RawReply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	/** The body as the network delivered it, one Buffer per 'data' event (per HTTP chunk when chunked). */
	chunks: Buffer[];
	text: string;
	/** Milliseconds from sending to the response headers, to the first body bytes, to the end. */
	headersAfterMs: number;
	firstBytesAfterMs: number;
	endAfterMs: number;
}

/** POST /v1/chat/completions with node:http, keeping the body's network chunks and their timing. */
export function rawChat(service: LocalService, key: string, body: unknown): Promise<RawReply> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const req = request(
			`${service.baseUrl}/chat/completions`,
			{
				method: 'POST',
				headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
			},
			(res) => {
				const headersAfterMs = Date.now() - started;
				let firstBytesAfterMs = -1;
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => {
					if (firstBytesAfterMs < 0) firstBytesAfterMs = Date.now() - started;
					chunks.push(chunk);
				});
				res.on('error', reject);
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						chunks,
						text: Buffer.concat(chunks).toString('utf8'),
						headersAfterMs,
						firstBytesAfterMs,
						endAfterMs: Date.now() - started,
					}),
				);
			},
		);
		req.on('error', reject);
		req.end(JSON.stringify(body));
	});
}

export interface SseEvent {
	/** The `event:` field, when given. */
	event?: string;
	data: string;
}

/**
 * An SSE body read the way the EventSource specification reads it: lines end with CRLF, LF or CR;
 * `data:` lines of one event join with "\n"; one space after the colon is dropped; `:` lines are comments.
 */
export function parseSse(text: string): { events: SseEvent[]; comments: string[] } {
	const events: SseEvent[] = [];
	const comments: string[] = [];
	let data: string[] = [];
	let event: string | undefined;
	for (const line of text.split(/\r\n|\r|\n/)) {
		if (line === '') {
			if (data.length > 0)
				events.push({ ...(event === undefined ? {} : { event }), data: data.join('\n') });
			data = [];
			event = undefined;
		} else if (line.startsWith(':')) {
			comments.push(line.slice(1).trim());
		} else {
			const colon = line.indexOf(':');
			const field = colon < 0 ? line : line.slice(0, colon);
			const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
			if (field === 'data') data.push(value);
			if (field === 'event') event = value;
		}
	}
	return { events, comments };
}

/** A JSON chunk of a chat completion stream. */
export interface Chunk {
	id: string;
	object: string;
	created: number;
	model: string;
	choices: Array<{ index: number; delta: Record<string, any>; finish_reason: string | null }>;
	usage?: Record<string, number>;
	error?: Record<string, unknown>;
}

/** The JSON chunks of an SSE body (every event but [DONE]), and whether it ended with [DONE]. */
export function streamChunks(text: string): { chunks: Chunk[]; done: boolean } {
	const { events } = parseSse(text);
	const done = events.at(-1)?.data === '[DONE]';
	const chunks = (done ? events.slice(0, -1) : events).map(
		(event) => JSON.parse(event.data) as Chunk,
	);
	return { chunks, done };
}

/** The concatenated `delta[field]` of stream chunks. */
export function joinDeltas(chunks: readonly Chunk[], field = 'content'): string {
	return chunks.map((chunk) => chunk.choices[0]?.delta[field] ?? '').join('');
}

/** The headers of a request with `key`, and `more`. */
const withKey = (key: string, more: Record<string, string> = {}) => ({
	Authorization: `Bearer ${key}`,
	...more,
});

/** POST a video submit as JSON to `path` (`/videos` or `/video/generations`) with `key` and `headers`. */
export function submitVideo(
	service: LocalService,
	key: string,
	body: unknown,
	path = '/videos',
	headers: Record<string, string> = {},
): Promise<Reply> {
	return send(`${service.baseUrl}${path}`, {
		method: 'POST',
		headers: withKey(key, { 'Content-Type': 'application/json', ...headers }),
		body: JSON.stringify(body),
	});
}

/**
 * A submit of video-1 with the prompt "a red fox" to `path` with `key`, a job of 1 s unless the knobs say otherwise:
 * the body's fields and the knobs given are merged over those.
 */
export const videoSubmit =
	(service: () => LocalService, key: string, path = '/videos') =>
	(body: Record<string, unknown>, knobs: Record<string, unknown> = {}) =>
		submitVideo(
			service(),
			key,
			{ model: 'video-1', prompt: 'a red fox', x_local: { job_seconds: 1, ...knobs }, ...body },
			path,
		);

/** GET `url` (a whole URL, or a path under the Base URL) with `key` (none: no Authorization header). */
export function getWith(
	service: LocalService,
	url: string,
	key?: string,
	headers: Record<string, string> = {},
): Promise<Reply> {
	const whole = url.startsWith('http') ? url : `${service.baseUrl}${url}`;
	return send(whole, { headers: key === undefined ? headers : withKey(key, headers) });
}

/** Polls `url` with `key` every 100 ms until `done(reply)` (at most `maxMs`); the replies seen, in order. */
export async function pollUntil(
	service: LocalService,
	url: string,
	key: string,
	done: (reply: Reply) => boolean,
	maxMs = 15_000,
): Promise<Reply[]> {
	const replies: Reply[] = [];
	const until = Date.now() + maxMs;
	for (;;) {
		const reply = await getWith(service, url, key);
		replies.push(reply);
		if (done(reply)) return replies;
		if (Date.now() > until) throw new Error(`still not done after ${maxMs} ms: ${reply.text}`);
		await delay(100);
	}
}

/** The `status` of each reply, each told once in the order first seen. */
export const statusesSeen = (replies: readonly Reply[]) => [
	...new Set(replies.map((reply) => reply.json.status as string)),
];
