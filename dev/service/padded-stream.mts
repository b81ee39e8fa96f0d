/**
 * A large answer written as the client reads it: its first bytes, then zeros up to its size, in 64 KiB pieces
 * that wait for the socket to drain, so the service never holds it whole (large-image.mts, video/content.mts).
 */
import type { ServerResponse } from 'node:http';

const PIECE = 64 * 1024;

/** Writes `head`, then zeros until `size` bytes went out, and ends `res` (the headers must be written). */
export function writePadded(res: ServerResponse, head: Buffer, size: number): void {
	const zeros = Buffer.alloc(PIECE);
	let sent = 0;
	const write = () => {
		while (sent < size) {
			const piece = sent < head.length ? head.subarray(sent, sent + PIECE) : zeros;
			const bytes = piece.subarray(0, Math.min(size - sent, piece.length));
			sent += bytes.length;
			if (!res.write(bytes)) {
				res.once('drain', write);
				return;
			}
		}
		res.end();
	};
	res.once('close', () => (sent = size));
	write();
}
