/**
 * Server-Sent Events output: `data: <json>` events ended by `data: [DONE]`, written
 * the way the stream knobs ask (line ends, no space after `data:`, JSON over two `data:` lines, comments).
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { BodyWriter } from './body-writer.mts';
import type { Knobs } from './knobs.mts';

const lineEnds = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

export class SseWriter {
	readonly #body: BodyWriter;
	readonly #knobs: Knobs;
	readonly #eol: string;

	/** Starts a 200 event stream on `res`. */
	constructor(res: ServerResponse, knobs: Knobs) {
		res.writeHead(200, {
			'Content-Type': 'text/event-stream; charset=utf-8',
			'Cache-Control': 'no-cache',
			Connection: 'keep-alive',
		});
		this.#body = new BodyWriter(res, knobs.splitBytes);
		this.#knobs = knobs;
		this.#eol = lineEnds[knobs.lineEnd];
	}

	/**
	 * One event whose data is `value` as JSON, with an `event:` field when `event` is given. With the
	 * `multiline` knob the JSON is split after its opening brace over two `data:` lines, which a client
	 * joins with a newline: whitespace that JSON allows there.
	 */
	json(value: unknown, event?: string): Promise<void> {
		const text = JSON.stringify(value);
		const lines = this.#knobs.multiline ? [text.slice(0, 1), text.slice(1)] : [text];
		return this.#event(lines, event);
	}

	/** The closing `data: [DONE]` event. */
	done(): Promise<void> {
		return this.#event(['[DONE]']);
	}

	/** A comment line (`: text`), which clients ignore. */
	comment(text: string): Promise<void> {
		return this.#body.write(`: ${text}${this.#eol}${this.#eol}`);
	}

	/** Sends what is buffered, then waits `ms`. */
	async pause(ms: number): Promise<void> {
		await this.#body.flush();
		await delay(ms);
	}

	end(): Promise<void> {
		return this.#body.end();
	}

	#event(dataLines: string[], event?: string): Promise<void> {
		const data = this.#knobs.noSpace ? 'data:' : 'data: ';
		const lines = [
			...(event === undefined ? [] : [`event: ${event}`]),
			...dataLines.map((line) => `${data}${line}`),
		];
		return this.#body.write(lines.map((line) => `${line}${this.#eol}`).join('') + this.#eol);
	}
}
