import type { IExecuteFunctions } from 'n8n-workflow';

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

/** What n8n's binary data takes (`prepareBinaryData`): bytes, or a Node.js stream it reads as it comes. */
export type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** A Node.js Readable, as n8n names it. */
type NodeStream = Exclude<BinarySource, Buffer>;

/**
 * A body handed on to a reader elsewhere (n8n's binary data), never held whole here: the stream itself (both
 * routes give a Node.js Readable), paused, so that its reader pulls it at its own pace. The watch goes on:
 * each bytes read re-arms its Timeout (a `data` listener on a paused stream hears each chunk read without
 * starting the flow); silence for the Timeout or the cancel destroys the stream with a NetworkError. The
 * watch is stopped when the stream closes.
 */
export function watchedStream(body: ReplyBody, { url, watch }: ReadLimits): BinarySource {
	if (ArrayBuffer.isView(body)) {
		watch.stop();
		return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	}
	const stream = body as unknown as NodeStream;
	stream.pause();
	stream.on('data', () => watch.bytes());
	stream.once('close', () => watch.stop());
	watch.onEnd((end) => stream.destroy(new NetworkError(url, end, watch.idleMs)));
	return stream;
}

/** Resolves once `stream` may be read again (bytes, its end, or its failure). */
async function readable(stream: NodeStream): Promise<void> {
	await new Promise<void>((resolve) => {
		const done = () => {
			stream.off('readable', done);
			stream.off('end', done);
			stream.off('error', done);
			resolve();
		};
		stream.once('readable', done);
		stream.once('end', done);
		stream.once('error', done);
	});
}

/**
 * The first `length` bytes of `source` (fewer when it is shorter), read ahead and put back, so that its reader
 * still gets it from its start: what a type is told by, before the whole goes on. A stream that ended within
 * them is handed on as the bytes it was.
 */
export async function peek(
	source: BinarySource,
	length: number,
): Promise<{ head: Buffer; source: BinarySource }> {
	if (Buffer.isBuffer(source)) return { head: source.subarray(0, length), source };
	const read: Buffer[] = [];
	let held = 0;
	while (held < length) {
		if (source.errored !== null) throw source.errored;
		const bytes = source.read() as Buffer | null;
		if (bytes !== null) {
			read.push(bytes);
			held += bytes.length;
		} else if (source.readableEnded) {
			return { head: Buffer.concat(read).subarray(0, length), source: Buffer.concat(read) };
		} else await readable(source);
	}
	const head = Buffer.concat(read);
	source.unshift(head);
	return { head: head.subarray(0, length), source };
}
