/** Every request received on /v1, for tests to check what a client sent (GET/DELETE /__control/requests). */
import type { IncomingMessage } from 'node:http';

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
}

function parseBody(raw: string): unknown {
	if (raw === '') return null;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

export class RequestLog {
	#entries: RecordedRequest[] = [];

	record(req: IncomingMessage, rawBody: string): void {
		const headers: Record<string, string> = {};
		for (let i = 0; i < req.rawHeaders.length; i += 2) {
			const name = req.rawHeaders[i].toLowerCase();
			const value = req.rawHeaders[i + 1];
			headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
		}
		this.#entries.push({
			method: req.method ?? '',
			path: req.url ?? '',
			headers,
			body: parseBody(rawBody),
			receivedAt: performance.timeOrigin + performance.now(),
		});
	}

	entries(): readonly RecordedRequest[] {
		return this.#entries;
	}

	clear(): void {
		this.#entries = [];
	}
}
