/** Every request received on /v1 (and /__redirect), for tests to check what a client sent and when it went (GET/DELETE /__control/requests). */
import type { IncomingMessage, ServerResponse } from 'node:http';

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
	/** Parsed JSON when the body parses, else the raw text; null when there is no body. */
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

function parseBody(raw: string): unknown {
	if (raw === '') return null;
	try {
		return JSON.parse(raw);
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

	record(req: IncomingMessage, res: ServerResponse, rawBody: string): void {
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
			body: parseBody(rawBody),
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
