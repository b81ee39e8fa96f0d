/** Every request received on /v1 (and /__redirect), for tests to check what a client sent and when it went (GET/DELETE /__control/requests). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { digest } from './digest.mts';
import { parseMultipart } from './multipart.mts';

/**
 * How a request's connection ended: `answer` once the whole answer was handed to the socket; `client` when
 * the client closed the connection before that (a cancelled request); `service` when the service cut it
 * itself (the `reset` knob, or a failure after the headers).
 */
export type EndedBy = 'answer' | 'client' | 'service';

export interface RecordedRequest {
	method: string;
	/** The request target as received (path and query). */
	path: string;
	/** Lower-cased names, values as received; repeated headers joined with ', '. */
	headers: Record<string, string>;
	/**
	 * Parsed JSON when the body parses, else the raw text; null when there is no body. A multipart/form-data body
	 * is its parts in order: `{name, value}` for a text field, `{name, filename, type, bytes, sha256}` for a file
	 * (its type as sent, its size, the first 12 hex digits of its SHA-256), as the raw text when it cannot be read.
	 */
	body: unknown;
	/** When the whole request had arrived, in Unix milliseconds (fractional: microseconds count). */
	receivedAt: number;
	/** When and how its connection ended; absent while the request is still in flight. */
	ended?: { at: number; by: EndedBy };
	/**
	 * The connection it came on, numbered from 1 in the order the service saw connections carry requests:
	 * requests with the same number shared one connection (kept open).
	 */
	connection: number;
}

/** A multipart body's parts as the log shows them (see `body`). */
function formParts(contentType: string, body: Buffer): unknown[] {
	return parseMultipart(contentType, body).map((part) =>
		part.filename === undefined
			? { name: part.name, value: part.data.toString('utf8') }
			: {
					name: part.name,
					filename: part.filename,
					type: part.contentType ?? null,
					bytes: part.data.length,
					sha256: digest(part.data),
				},
	);
}

function parseBody(body: Buffer, contentType: string | undefined): unknown {
	if (body.length === 0) return null;
	const raw = body.toString('utf8');
	try {
		return contentType?.toLowerCase().startsWith('multipart/form-data')
			? formParts(contentType, body)
			: JSON.parse(raw);
	} catch {
		return raw;
	}
}

const now = () => performance.timeOrigin + performance.now();

/** Answers the service cut off on purpose, so that their end is not counted as the client's. */
const cutByService = new WeakSet<ServerResponse>();

/** Ends `res` without an answer (the connection is destroyed), as the service's own doing. */
export function cutOff(res: ServerResponse): void {
	cutByService.add(res);
	res.destroy();
}

export class RequestLog {
	#entries: RecordedRequest[] = [];
	readonly #connections = new WeakMap<object, number>();
	#connectionCount = 0;

	/** Whether `socket` has carried a recorded request. */
	carried(socket: object): boolean {
		return this.#connections.has(socket);
	}

	/** The number of the connection `req` came on (a new one for a connection not seen before). */
	connectionOf(req: IncomingMessage): number {
		let number = this.#connections.get(req.socket);
		if (number === undefined) {
			number = ++this.#connectionCount;
			this.#connections.set(req.socket, number);
		}
		return number;
	}

	record(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
		const headers: Record<string, string> = {};
		for (let i = 0; i < req.rawHeaders.length; i += 2) {
			const name = req.rawHeaders[i].toLowerCase();
			const value = req.rawHeaders[i + 1];
			headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
		}
		const entry: RecordedRequest = {
			method: req.method ?? '',
			path: req.url ?? '',
			headers,
			body: parseBody(body, req.headers['content-type']),
			receivedAt: now(),
			connection: this.connectionOf(req),
		};
		res.once('close', () => {
			const by: EndedBy = res.writableFinished
				? 'answer'
				: cutByService.has(res)
					? 'service'
					: 'client';
			entry.ended = { at: now(), by };
		});
		this.#entries.push(entry);
	}

	entries(): readonly RecordedRequest[] {
		return this.#entries;
	}

	clear(): void {
		this.#entries = [];
	}
}
