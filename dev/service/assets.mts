/** GET /__assets/<name> (no auth): the fixture files of dev/service/assets/, for image URLs and recordings in tests and demos. */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from './errors.mts';

const assetsDir = join(import.meta.dirname, 'assets');

const contentTypes: Record<string, string> = {
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.txt': 'text/plain; charset=utf-8',
	'.wav': 'audio/wav',
};

export async function serveAsset(
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
): Promise<void> {
	const name = path.slice('/__assets/'.length);
	const contentType = contentTypes[extname(name)];
	if (req.method !== 'GET' || !/^\w[\w.-]*$/.test(name) || contentType === undefined) {
		throw notFound(req.method ?? '', path);
	}
	let bytes: Buffer;
	try {
		bytes = await readFile(join(assetsDir, name));
	} catch {
		throw notFound(req.method, path);
	}
	res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': String(bytes.length) });
	res.end(bytes);
}
