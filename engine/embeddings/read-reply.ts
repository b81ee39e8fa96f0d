import { EmbeddingsReplyError } from '../failures/errors';
import { entryIndex } from '../reply/entry-index';
import type { InputUsage } from '../reply/input-usage';
import { inputUsageOf } from '../reply/input-usage';
import { listInReply } from '../reply/list-reply';
import type { HttpReply } from '../transport/outgoing';
import { describe } from '../values';

/** The service's count of what a request used. */
export type EmbeddingsUsage = InputUsage;

/** The vectors of one request, one per text sent and in the order sent. */
export interface EmbeddingsReply {
	vectors: number[][];
	/** Undefined when the service reported no usage. */
	usage?: EmbeddingsUsage;
}

/** A base64 vector: 32-bit floats, little-endian (what `encoding_format: "base64"` gives). */
function decodeBase64(text: string, position: number): number[] {
	const bytes = Buffer.from(text, 'base64');
	if (bytes.length === 0 || bytes.length % 4 !== 0) {
		throw new EmbeddingsReplyError(
			`sent a vector for text ${position + 1} of the request that is neither numbers nor base64 floats: "${text.slice(0, 40)}"`,
		);
	}
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
	return Array.from({ length: bytes.length / 4 }, (_, at) => view.getFloat32(at * 4, true));
}

/**
 * An entry's vector: an array of numbers, or base64 floats (a gateway may send them whatever was asked);
 * either way each number must be finite (JSON's `1e999` reads as Infinity, base64 bytes may hold NaN).
 */
function vectorOf(embedding: unknown, position: number): number[] {
	const base64 = typeof embedding === 'string';
	const vector = base64 ? decodeBase64(embedding, position) : embedding;
	const what = `sent a ${base64 ? 'base64 ' : ''}vector for text ${position + 1} of the request`;
	if (!Array.isArray(vector) || vector.length === 0) {
		throw new EmbeddingsReplyError(
			`${what} that is not a list of numbers (it is ${Array.isArray(vector) ? 'empty' : describe(vector)})`,
		);
	}
	const at = vector.findIndex((value) => typeof value !== 'number' || !Number.isFinite(value));
	if (at !== -1) {
		throw new EmbeddingsReplyError(
			`${what} whose number ${at + 1} of ${vector.length} is ${describe(vector[at])}, not a finite number`,
		);
	}
	return vector as number[];
}

/** How the reader's errors name the reply's entries and the texts sent. */
const ENTRIES = {
	entry: 'entry',
	value: 'vector',
	item: 'text',
	fail: (problem: string) => new EmbeddingsReplyError(problem),
};

/**
 * Reads the reply to an embeddings request of `sent` texts. Vectors are matched to the texts by each
 * entry's `index`, never by position; a reply with another count, an entry without an index (or with one
 * out of range, or twice), a vector that is not finite numbers, or vectors of different lengths is an
 * EmbeddingsReplyError. An error status, or an error object inside a 2xx, is the ServiceError it says.
 */
export function readEmbeddings(reply: HttpReply, sent: number): EmbeddingsReply {
	const { list: data, json, body } = listInReply(reply, 'data');
	if (data === undefined) {
		throw new EmbeddingsReplyError(
			`answered ${reply.status} without a list of vectors: ${body.summary}`,
		);
	}
	if (data.length !== sent) {
		throw new EmbeddingsReplyError(
			`answered ${data.length} ${data.length === 1 ? 'vector' : 'vectors'} for ${sent} ${sent === 1 ? 'text' : 'texts'}`,
		);
	}
	const vectors: number[][] = new Array<number[]>(sent);
	const taken = new Set<number>();
	data.forEach((entry: unknown, at) => {
		const index = entryIndex(entry, at, sent, taken, ENTRIES);
		vectors[index] = vectorOf((entry as { embedding?: unknown }).embedding, index);
	});
	const length = vectors[0].length;
	const other = vectors.find((vector) => vector.length !== length);
	if (other !== undefined) {
		throw new EmbeddingsReplyError(
			`sent vectors of different lengths in one reply (${length} and ${other.length} numbers)`,
		);
	}
	return { vectors, usage: inputUsageOf(json?.usage) };
}
