import { toNetworkError } from './network-error';
import type { RequestWatch } from './watch';
import { NetworkError } from '../failures/errors';

/** The response body n8n's request helper gives for `encoding: 'stream'` (a Node.js Readable). */
export interface ByteStream {
	on(event: 'data', listener: (bytes: Uint8Array) => void): unknown;
	on(event: 'error', listener: (error: unknown) => void): unknown;
	once(event: 'end' | 'close', listener: () => void): unknown;
	destroy(): unknown;
}

/** A reply's body as n8n's request helper gives it: a stream, or the bytes it read whole. */
export type ReplyBody = ByteStream | Uint8Array;

/** Closes a body that will not be read (a reply that came too late); the error it reports is no news. */
export function closeUnread(body: ReplyBody): void {
	if (ArrayBuffer.isView(body)) return;
	body.on('error', () => undefined);
	body.destroy();
}

export interface ReadLimits {
	/** The request's URL, for the NetworkError. */
	url: string;
	/** The request's Timeout and cancel, watched since it was sent. */
	watch: RequestWatch;
}

/**
 * Reads a body to its end and hands on its text as it arrives, decoded as UTF-8 in streaming mode
 * (a character split between two network chunks comes out whole). Destroys the body and throws a
 * NetworkError when no bytes come for the watch's Timeout (ETIMEDOUT), when the execution is cancelled
 * (ERR_CANCELED) or when the connection fails; an error thrown by `onText` stops the read the same way.
 * The watch is stopped when the read ends.
 */
export async function readStream(
	body: ByteStream,
	{ url, watch }: ReadLimits,
	onText: (text: string) => void,
): Promise<void> {
	const decoder = new TextDecoder();
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
				watch.bytes();
				pass(decoder.decode(bytes, { stream: true }));
			});
			body.once('end', () => {
				pass(decoder.decode());
				settle();
			});
			body.on('error', (error) => settle(toNetworkError(url, error, watch.idleMs)));
			// Every body closes, after its end too: only a close before it is a lost connection (and only
			// then is the error made, with its stack).
			body.once('close', () => {
				if (!settled) settle(new NetworkError(url, 'ECONNRESET', watch.idleMs));
			});
			watch.onEnd((end) => settle(new NetworkError(url, end, watch.idleMs)));
		});
	} finally {
		watch.stop();
	}
}

const decoder = new TextDecoder();

/** Reads a body to its end as one text (an error reply, a reply that is not streamed). */
export async function readWhole(body: ReplyBody, limits: ReadLimits): Promise<string> {
	if (ArrayBuffer.isView(body)) return decoder.decode(body);
	const pieces: string[] = [];
	await readStream(body, limits, (text) => pieces.push(text));
	return pieces.join('');
}
