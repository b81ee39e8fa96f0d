/**
 * Writes a response body, each write awaited until it reaches the socket. With `pieceBytes` (the
 * `split_bytes` knob) the bytes go out in writes of exactly that size, across event and UTF-8 character
 * boundaries; `flush` sends a shorter rest, e.g. before a pause.
 */
import type { ServerResponse } from 'node:http';

export class BodyWriter {
	readonly #res: ServerResponse;
	readonly #pieceBytes: number | undefined;
	#pending = Buffer.alloc(0);

	constructor(res: ServerResponse, pieceBytes: number | undefined) {
		this.#res = res;
		this.#pieceBytes = pieceBytes;
	}

	async write(text: string): Promise<void> {
		if (this.#pieceBytes === undefined) {
			await this.#send(text);
			return;
		}
		this.#pending = Buffer.concat([this.#pending, Buffer.from(text)]);
		while (this.#pending.length >= this.#pieceBytes) {
			await this.#send(this.#pending.subarray(0, this.#pieceBytes));
			this.#pending = this.#pending.subarray(this.#pieceBytes);
		}
	}

	async flush(): Promise<void> {
		if (this.#pending.length === 0) return;
		const rest = this.#pending;
		this.#pending = Buffer.alloc(0);
		await this.#send(rest);
	}

	async end(): Promise<void> {
		await this.flush();
		this.#res.end();
	}

	/** Resolves once `chunk` is handed to the socket, or at once when the client has gone. */
	#send(chunk: string | Buffer): Promise<void> {
		return new Promise((resolve) => {
			if (this.#res.destroyed) resolve();
			else this.#res.write(chunk, () => resolve());
		});
	}
}
