/** Builds Server-Sent Event bodies of chat-completion chunks and feeds them to the stream assembler. */
import type { Completion } from '../../engine/protocol';
import { createStreamAssembler } from '../../engine/reply/stream';

export const HEADER = {
	id: 'chatcmpl-1',
	object: 'chat.completion.chunk',
	created: 1_700_000_000,
	model: 'echo-1',
};

/** One chunk with one choice (index 0 unless `extra` says otherwise). */
export function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	const { finish_reason = null, index = 0, ...top } = extra;
	return { ...HEADER, choices: [{ index, delta, finish_reason }], ...top };
}

/** `data: <json>` events, each closed by a blank line, then `data: [DONE]`. */
export function sse(chunks: unknown[], { done = true, eol = '\n' } = {}): string {
	const events = chunks.map(
		(value) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}${eol}${eol}`,
	);
	return events.join('') + (done ? `data: [DONE]${eol}${eol}` : '');
}

/** Feeds the pieces to a new assembler; returns the completion and the text passed to onText. */
export function assemble(
	pieces: string | string[],
	status = 200,
): { completion: Completion; deltas: string[] } {
	const deltas: string[] = [];
	const assembler = createStreamAssembler({ status, onText: (delta) => deltas.push(delta) });
	for (const piece of [pieces].flat()) assembler.feed(piece);
	return { completion: assembler.finish(), deltas };
}

/** What assembling throws (fails the test when nothing is thrown). */
export function assemblyError(pieces: string | string[], status = 200): Error {
	try {
		assemble(pieces, status);
	} catch (error) {
		return error as Error;
	}
	throw new Error('The stream was accepted');
}

/** mulberry32: a tiny seeded PRNG, so every run cuts at the same places. Returns numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/** `count` random cut positions in a body of `length` bytes, in order. */
export function randomCuts(length: number, count: number, random: () => number): number[] {
	return Array.from({ length: count }, () => Math.floor(random() * (length + 1))).sort(
		(a, b) => a - b,
	);
}

/** Cuts `bytes` at `positions` and decodes the pieces with a streaming TextDecoder, as the transport does. */
export function decodePieces(bytes: Uint8Array, positions: number[]): string[] {
	const decoder = new TextDecoder();
	const pieces: string[] = [];
	let start = 0;
	for (const end of [...positions, bytes.length]) {
		pieces.push(decoder.decode(bytes.subarray(start, end), { stream: true }));
		start = end;
	}
	pieces.push(decoder.decode());
	return pieces;
}
