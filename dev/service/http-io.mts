/** Reading request bodies and writing responses. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.mts';

const maxBodyBytes = 64 * 1024 * 1024;

/** The whole request body's bytes; 413 when it exceeds 64 MiB (the body is still drained). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size <= maxBodyBytes) chunks.push(chunk);
	}
	if (size > maxBodyBytes) {
		throw new ApiError({
			status: 413,
			message: `Request body too large: ${size} bytes (limit ${maxBodyBytes})`,
			type: 'invalid_request_error',
			code: 'request_too_large',
		});
	}
	return Buffer.concat(chunks);
}

export function sendJson(
	res: ServerResponse,
	status: number,
	value: unknown,
	headers: Record<string, string> = {},
): void {
	sendText(res, status, JSON.stringify(value), { 'Content-Type': 'application/json', ...headers });
}

/** Sends `body` exactly as given; `headers` decide the content type (none for an empty body). */
export function sendText(
	res: ServerResponse,
	status: number,
	body: string,
	headers: Record<string, string>,
): void {
	res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
	res.end(body);
}

export function sendError(res: ServerResponse, error: ApiError): void {
	sendJson(res, error.status, error.body(), error.headers);
}
