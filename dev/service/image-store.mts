/**
 * The images answered as `url` (response_format `url`): kept in memory and served at
 * GET /__images/<id>.<extension> without auth, as a gateway's storage serves a signed URL (no key goes
 * there). The request is recorded, so a test sees which headers a client took along. The last 500 are kept.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from './errors.mts';

const KEPT = 500;

interface Stored {
	bytes: Buffer;
	mimeType: string;
}

export class ImageStore {
	readonly #images = new Map<string, Stored>();

	/** Keeps `bytes`; returns its path, `/__images/<id>.<extension>`. */
	put(bytes: Buffer, mimeType: string): string {
		const name = `${randomUUID()}.${mimeType.slice('image/'.length)}`;
		this.#images.set(name, { bytes, mimeType });
		if (this.#images.size > KEPT) this.#images.delete(this.#images.keys().next().value as string);
		return `/__images/${name}`;
	}

	serve(req: IncomingMessage, res: ServerResponse, path: string): void {
		const stored = this.#images.get(path.slice('/__images/'.length));
		if (req.method !== 'GET' || stored === undefined) throw notFound(req.method ?? '', path);
		res.writeHead(200, {
			'Content-Type': stored.mimeType,
			'Content-Length': String(stored.bytes.length),
		});
		res.end(stored.bytes);
	}
}
