import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';

import { NetworkError } from '../../../engine/failures/errors';
import { readStream, readWhole } from '../../../engine/transport/read-stream';
import { RequestWatch } from '../../../engine/transport/watch';

const url = 'http://127.0.0.1:9/v1/chat/completions';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function read(body: PassThrough, idleMs = 5000, cancel?: AbortSignal) {
	const pieces: string[] = [];
	await readStream(body, { url, watch: new RequestWatch(idleMs, cancel) }, (text) =>
		pieces.push(text),
	);
	return pieces;
}

const failure = (promise: Promise<unknown>) =>
	promise.then(
		() => {
			throw new Error('The read succeeded');
		},
		(error: unknown) => error as NetworkError,
	);

describe('reading a body stream', () => {
	test('a character split between chunks is decoded whole', async () => {
		const body = new PassThrough();
		const bytes = Buffer.from('a🗼b東c');
		const reading = read(body);
		for (const piece of [
			bytes.subarray(0, 2),
			bytes.subarray(2, 4),
			bytes.subarray(4, 8),
			bytes.subarray(8),
		]) {
			body.write(piece);
			await wait(1);
		}
		body.end();
		const pieces = await reading;
		expect(pieces.join('')).toBe('a🗼b東c');
		expect(pieces).toContain('');
	});

	describe('the idle timeout (Timeout while the reply streams)', () => {
		// Fake clock: the times below are exact, however loaded the machine is.
		beforeEach(() =>
			jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] }),
		);
		afterEach(() => jest.useRealTimers());

		test('restarts with every chunk: a stream that keeps sending for four times Timeout is read to its end', async () => {
			const body = new PassThrough();
			const reading = read(body, 1000);
			for (let chunk = 0; chunk < 10; chunk++) {
				body.write(`data: ${chunk}\n\n`);
				await jest.advanceTimersByTimeAsync(400);
			}
			body.end();
			expect((await reading).join('')).toBe(
				Array.from({ length: 10 }, (_, chunk) => `data: ${chunk}\n\n`).join(''),
			);
		});

		test('fires Timeout after the last chunk, not after the first, and destroys the body', async () => {
			const body = new PassThrough();
			let error: NetworkError | undefined;
			void failure(read(body, 1000)).then((caught) => (error = caught));
			for (let chunk = 0; chunk < 3; chunk++) {
				body.write('data: {}\n\n');
				await jest.advanceTimersByTimeAsync(700);
			}
			// 2.1 s after the start, 700 ms after the last chunk: still reading.
			await jest.advanceTimersByTimeAsync(299);
			expect(error).toBeUndefined();
			await jest.advanceTimersByTimeAsync(1);
			expect(error).toEqual(new NetworkError(url, 'ETIMEDOUT'));
			expect(body.destroyed).toBe(true);
		});
	});

	test('a read that ends leaves no timer and no listener on the cancel signal', async () => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
		try {
			const cancel = new AbortController();
			const body = new PassThrough();
			const reading = read(body, 60_000, cancel.signal);
			expect(jest.getTimerCount()).toBe(1);
			expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(1);
			body.end('{}');
			await reading;
			expect(jest.getTimerCount()).toBe(0);
			expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
		} finally {
			jest.useRealTimers();
		}
	});

	test('a body n8n read whole is decoded as UTF-8', async () => {
		const bytes = Buffer.from('{"content":"Grüße aus 東京 🗼"}');
		const watch = new RequestWatch(60_000);
		watch.stop();
		expect(await readWhole(bytes, { url, watch })).toBe('{"content":"Grüße aus 東京 🗼"}');
	});

	test('a cancelled execution stops the read at once and destroys the body', async () => {
		const body = new PassThrough();
		const controller = new AbortController();
		const reading = failure(read(body, 60_000, controller.signal));
		body.write('data: {}\n\n');
		controller.abort();
		expect((await reading).code).toBe('ERR_CANCELED');
		expect(body.destroyed).toBe(true);
		expect((await failure(read(new PassThrough(), 60_000, AbortSignal.abort()))).code).toBe(
			'ERR_CANCELED',
		);
	});

	test('connection failures are NetworkErrors with their code', async () => {
		const reset = new PassThrough();
		const resetting = failure(read(reset));
		reset.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
		expect(await resetting).toEqual(new NetworkError(url, 'ECONNRESET'));

		const closed = new PassThrough();
		const closing = failure(read(closed));
		closed.destroy();
		expect((await closing).code).toBe('ECONNRESET');
	});

	test('an error thrown while handling the text stops the read with that error', async () => {
		const body = new PassThrough();
		const problem = new Error('bad event');
		const reading = readStream(body, { url, watch: new RequestWatch(5000) }, () => {
			throw problem;
		});
		body.write('data: x\n\n');
		await expect(reading).rejects.toBe(problem);
		expect(body.destroyed).toBe(true);
	});
});
