/**
 * GET /__images/large/<bytes>.png: a file of that many bytes (at most 1 GiB) that begins as a PNG (its
 * signature, then zeros), written as the client reads it (padded-stream.mts), so the service never holds it
 * whole: for tests of how much of a large download a client keeps in memory. `?fail_first=<n>&id=<id>`: the
 * first n requests with that id answer 503, as a storage host under load does. No auth.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, notFound } from './errors.mts';
import { writePadded } from './padded-stream.mts';

const LARGEST = 1024 ** 3;
const SIGNATURE = Buffer.from('\x89PNG\r\n\x1a\n', 'latin1');

/** Requests failed so far per `id`. */
const failed = new Map<string, number>();

const unavailable = new ApiError({
	status: 503,
	message: 'The storage is busy, try again',
	type: 'server_error',
	code: 'unavailable',
});

/** Whether `path` is this route's. */
export const isLargeImage = (path: string) => path.startsWith('/__images/large/');

export function serveLargeImage(req: IncomingMessage, res: ServerResponse, path: string): void {
	const size = Number(/^\/__images\/large\/(\d+)\.png$/.exec(path)?.[1]);
	if (req.method !== 'GET' || !(size >= SIGNATURE.length && size <= LARGEST)) {
		throw notFound(req.method ?? '', path);
	}
	const query = new URL(req.url ?? '/', 'http://service').searchParams;
	const id = query.get('id') ?? '';
	const failures = failed.get(id) ?? 0;
	if (failures < Number(query.get('fail_first') ?? 0)) {
		failed.set(id, failures + 1);
		throw unavailable;
	}
	res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(size) });
	writePadded(res, SIGNATURE, size);
}
