import type { ByteStream } from './read-stream';

/**
 * A body `fetch` gave (a web stream) as the reader takes n8n's streamed bodies: `data` for each piece,
 * then `end` and `close`; `error` then `close` when the connection fails; `destroy` cancels it (and so
 * ends the request's use of the connection). Pieces flow once the reader has attached its listeners.
 */
export class WebBody implements ByteStream {
	#data: (bytes: Uint8Array) => void = () => undefined;
	#error: (error: unknown) => void = () => undefined;
	#end: () => void = () => undefined;
	#close: () => void = () => undefined;
	#destroyed = false;
	readonly #reader: ReadableStreamDefaultReader<Uint8Array>;

	constructor(body: ReadableStream<Uint8Array>) {
		this.#reader = body.getReader();
	}

	on(event: 'data', listener: (bytes: Uint8Array) => void): this;
	on(event: 'error', listener: (error: unknown) => void): this;
	on(event: 'data' | 'error', listener: (value: Uint8Array) => void): this {
		if (event === 'data') {
			this.#data = listener;
			void Promise.resolve().then(async () => await this.#flow());
		} else this.#error = listener as (error: unknown) => void;
		return this;
	}

	once(event: 'end' | 'close', listener: () => void): this {
		if (event === 'end') this.#end = listener;
		else this.#close = listener;
		return this;
	}

	destroy(): this {
		if (this.#destroyed) return this;
		this.#destroyed = true;
		this.#reader.cancel().catch(() => undefined);
		this.#close();
		return this;
	}

	async #flow(): Promise<void> {
		try {
			for (;;) {
				const { done, value } = await this.#reader.read();
				if (this.#destroyed) return;
				if (done) break;
				this.#data(value);
			}
			this.#end();
		} catch (error) {
			if (this.#destroyed) return;
			this.#error(error);
		}
		this.#destroyed = true;
		this.#close();
	}
}
