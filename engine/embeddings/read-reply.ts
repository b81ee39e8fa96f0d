import { readBody } from '../reply/body';
import { errorInJson, serviceErrorFrom } from '../reply/error-body';
import { EmbeddingsReplyError } from '../failures/errors';
import type { HttpReply } from '../transport/outgoing';
import { describe, isPlainObject } from '../values';

/** The service's count of what a request used. */
export interface EmbeddingsUsage {
	promptTokens: number;
	totalTokens: number;
}

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

function count(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function usageOf(usage: unknown): EmbeddingsUsage | undefined {
	if (!isPlainObject(usage)) return undefined;
	const prompt = count(usage.prompt_tokens);
	const total = count(usage.total_tokens) ?? prompt;
	if (total === undefined) return undefined;
	return { promptTokens: prompt ?? total, totalTokens: total };
}

/**
 * Reads the reply to an embeddings request of `sent` texts. Vectors are matched to the texts by each
 * entry's `index`, never by position; a reply with another count, an entry without an index (or with one
 * out of range, or twice), a vector that is not finite numbers, or vectors of different lengths is an
 * EmbeddingsReplyError. An error status, or an error object inside a 2xx, is the ServiceError it says.
 */
export function readEmbeddings(reply: HttpReply, sent: number): EmbeddingsReply {
	const body = readBody(reply.text);
	if (reply.status < 200 || reply.status >= 300) throw serviceErrorFrom(reply, body);
	const json = body.json;
	const data = isPlainObject(json) ? json.data : undefined;
	if (!Array.isArray(data)) {
		if (isPlainObject(json) && json.error !== undefined && errorInJson(json)) {
			throw serviceErrorFrom(reply, body);
		}
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
	data.forEach((entry: unknown, at) => {
		const index = isPlainObject(entry) ? entry.index : undefined;
		if (typeof index !== 'number' || !Number.isInteger(index)) {
			throw new EmbeddingsReplyError(
				`sent entry ${at + 1} of its reply without an index, so which text its vector belongs to is unknown`,
			);
		}
		if (index < 0 || index >= sent || vectors[index] !== undefined) {
			throw new EmbeddingsReplyError(
				index < 0 || index >= sent
					? `sent a vector for index ${index}, but only ${sent} texts were sent (indexes 0 to ${sent - 1})`
					: `sent two vectors for text ${index + 1} (index ${index})`,
			);
		}
		vectors[index] = vectorOf((entry as { embedding?: unknown }).embedding, index);
	});
	const length = vectors[0].length;
	const other = vectors.find((vector) => vector.length !== length);
	if (other !== undefined) {
		throw new EmbeddingsReplyError(
			`sent vectors of different lengths in one reply (${length} and ${other.length} numbers)`,
		);
	}
	return { vectors, usage: usageOf(isPlainObject(json) ? json.usage : undefined) };
}
