/** POST /v1/embeddings: the vectors of `embed-1` (models/embedding.mts), with the `x_local` knobs applied. */
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { ChatContext } from './chat.mts';
import { parseEmbeddingKnobs, type EmbeddingKnobs } from './embedding-knobs.mts';
import { parseEmbeddingsRequest, type EmbeddingsRequest } from './embeddings-request.mts';
import { endpointModel } from './endpoint-model.mts';
import { invalidRequest } from './errors.mts';
import { sendJson, sendText } from './http-io.mts';
import { checkFailFirst } from './knob-faults.mts';
import { isEmbeddingModel, vectorOf } from './models/embedding.mts';
import { countWords } from './words.mts';

export interface EmbeddingsContext extends ChatContext {
	/** The model's time per input, added to the request's (a batch of 200 takes longer than one of 10). */
	msPerInput: number;
}

/** A vector as base64: its numbers as 32-bit floats, little-endian, as OpenAI sends them. */
function base64(vector: number[]): string {
	return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/** The knobs of this request: none when `for_input` names a text its input does not hold. */
function knobsOf(request: EmbeddingsRequest): EmbeddingKnobs {
	const { knobs } = request;
	if (knobs.forInput === undefined || request.input.includes(knobs.forInput)) return knobs;
	return parseEmbeddingKnobs(undefined);
}

/** A body as JSON, Infinity written `1e999` (JSON has no Infinity; JSON.parse reads `1e999` as Infinity). */
function jsonWithInfinity(value: unknown): string {
	const mark = 'not finite: 1e999';
	return JSON.stringify(value, (_key, item: unknown) =>
		item === Infinity ? mark : item,
	).replaceAll(`"${mark}"`, '1e999');
}

interface Entry {
	object: 'embedding';
	index?: number;
	embedding: Array<number | string> | string;
}

/** The reply's entries, shaped by the knobs that make it not match the inputs as sent. */
function shaped(entries: Entry[], knobs: EmbeddingKnobs): Entry[] {
	let data = knobs.shuffled ? [...entries].reverse() : entries;
	if (knobs.dropLast) data = data.slice(0, -1);
	if (knobs.noIndex) data = data.map(({ index: _index, ...entry }) => entry);
	if (knobs.notNumbers && Array.isArray(data[0]?.embedding)) {
		const [first, ...rest] = data[0].embedding;
		data = [{ ...data[0], embedding: [String(first), ...rest] }, ...data.slice(1)];
	}
	return data;
}

export async function embeddings(
	res: ServerResponse,
	rawBody: string,
	context: EmbeddingsContext,
): Promise<void> {
	const request = parseEmbeddingsRequest(rawBody);
	// OpenAI's answer for a chat model at /embeddings.
	const refusal = () =>
		invalidRequest('You are not allowed to generate embeddings from this model', null);
	const model = await endpointModel(res, request.model, context, isEmbeddingModel, refusal);
	if (model === undefined) return;
	const dimensions = request.dimensions ?? model.dimensions;
	if (dimensions > model.dimensions) {
		throw invalidRequest(
			`'dimensions' must be at most ${model.dimensions} for \`${model.id}\`, got ${dimensions}`,
			'dimensions',
			'invalid_value',
		);
	}
	const knobs = knobsOf(request);
	checkFailFirst(knobs.failFirst, context.counts);
	if (context.msPerInput > 0) await delay(context.msPerInput * request.input.length);
	const vectors = request.input.map((text) =>
		vectorOf(text, knobs.ignoreDimensions ? model.dimensions : dimensions),
	);
	if (knobs.notFinite) {
		const last = vectors[vectors.length - 1];
		last[Math.min(1, last.length - 1)] = Infinity;
	}
	const asBase64 = request.encodingFormat === 'base64' || knobs.base64;
	const entries: Entry[] = vectors.map((vector, index) => ({
		object: 'embedding',
		index,
		embedding: asBase64 ? base64(vector) : vector,
	}));
	const tokens = request.input.reduce((sum, text) => sum + Math.max(1, countWords(text)), 0);
	const body = {
		object: 'list',
		data: shaped(entries, knobs),
		model: model.id,
		usage: { prompt_tokens: tokens, total_tokens: tokens },
	};
	if (knobs.notFinite) {
		sendText(res, 200, jsonWithInfinity(body), { 'Content-Type': 'application/json' });
	} else {
		sendJson(res, 200, body);
	}
}
