/** Server-Sent Events output (SERVICE.md 4.2): one `data: ` line per event, ended by `data: [DONE]`. */
import type { ServerResponse } from 'node:http';

export class SseWriter {
	readonly #res: ServerResponse;

	/** Starts a 200 event stream on `res`. */
	constructor(res: ServerResponse) {
		this.#res = res;
		res.writeHead(200, {
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache',
			Connection: 'keep-alive',
		});
	}

	/** One event whose data is `value` as JSON. */
	json(value: unknown): void {
		this.#data(JSON.stringify(value));
	}

	/** The closing `data: [DONE]` event; ends the response. */
	done(): void {
		this.#data('[DONE]');
		this.#res.end();
	}

	#data(text: string): void {
		this.#res.write(`data: ${text}\n\n`);
	}
}
