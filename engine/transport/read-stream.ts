import { sleep } from 'n8n-workflow';

import { toNetworkError } from './network-error';
import { NetworkError } from '../failures/errors';

/** The response body n8n's request helper gives for `encoding: 'stream'` (a Node.js Readable). */
export interface ByteStream {
	on(event: 'data', listener: (bytes: Uint8Array) => void): unknown;
	on(event: 'error', listener: (error: unknown) => void): unknown;
	once(event: 'end' | 'close', listener: () => void): unknown;
	destroy(): unknown;
}

export interface ReadLimits {
	/** The request's URL, for the NetworkError. */
	url: string;
	/** The longest wait for the next bytes, in ms. */
	idleMs: number;
	/** The execution's cancel signal. */
	cancel?: AbortSignal;
}

/** Timers fire at once beyond this many ms (2^31 - 1), so longer waits are taken in steps. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * Resolves when `idleMs` (of any length) passed since `lastBytes()`; one timer at a time, re-armed only when it fires. Rejects when `stop` aborts.
 */
export async function afterIdle(
	idleMs: number,
	lastBytes: () => number,
	stop: AbortSignal,
): Promise<void> {
	let wait = idleMs;
	for (;;) {
		await sleep(Math.min(wait, LONGEST_TIMER_MS), stop);
		const idle = Date.now() - lastBytes();
		if (idle >= idleMs) return;
		wait = idleMs - idle;
	}
}

/**
 * Reads a body to its end and hands on its text as it arrives, decoded as UTF-8 in streaming mode
 * (a character split between two network chunks comes out whole). Destroys the body and throws a
 * NetworkError when no bytes come for `idleMs` (ETIMEDOUT), when the execution is cancelled
 * (ERR_CANCELED) or when the connection fails; an error thrown by `onText` stops the read the same way.
 */
export async function readStream(
	body: ByteStream,
	{ url, idleMs, cancel }: ReadLimits,
	onText: (text: string) => void,
): Promise<void> {
	const decoder = new TextDecoder();
	const stop = new AbortController();
	let lastBytes = Date.now();
	try {
		await new Promise<void>((resolve, reject) => {
			let settled = false;
			/** Ends the read: resolves without an error, else destroys the body and rejects. */
			const settle = (error?: unknown) => {
				if (settled) return;
				settled = true;
				if (error === undefined) return resolve();
				body.destroy();
				reject(error);
			};
			const pass = (text: string) => {
				if (settled) return;
				try {
					onText(text);
				} catch (error) {
					settle(error);
				}
			};
			body.on('data', (bytes) => {
				lastBytes = Date.now();
				pass(decoder.decode(bytes, { stream: true }));
			});
			body.once('end', () => {
				pass(decoder.decode());
				settle();
			});
			body.on('error', (error) => settle(toNetworkError(url, error, idleMs)));
			body.once('close', () => settle(new NetworkError(url, 'ECONNRESET', idleMs)));
			const cancelled = () => settle(new NetworkError(url, 'ERR_CANCELED', idleMs));
			if (cancel?.aborted) cancelled();
			cancel?.addEventListener('abort', cancelled, { once: true, signal: stop.signal });
			afterIdle(idleMs, () => lastBytes, stop.signal).then(
				() => settle(new NetworkError(url, 'ETIMEDOUT', idleMs)),
				() => undefined,
			);
		});
	} finally {
		stop.abort();
	}
}

/** Reads a body to its end as one text (an error reply, a reply that is not streamed). */
export async function readWhole(body: ByteStream, limits: ReadLimits): Promise<string> {
	const pieces: string[] = [];
	await readStream(body, limits, (text) => pieces.push(text));
	return pieces.join('');
}
