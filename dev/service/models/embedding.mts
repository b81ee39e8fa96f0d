/**
 * The embedding model `embed-1`: a vector of hashed words, normalised, so that texts sharing words are near
 * each other and the same text always gets the same vector. It answers POST /v1/embeddings
 * (embeddings.mts); asked for a chat completion it answers 400, as embedding models behind gateways do.
 */
import { lowerWords } from '../words.mts';
import { releaseDate, type ModelDefinition } from './model.mts';
import { notForChat } from './not-for-chat.mts';

export interface EmbeddingModel extends ModelDefinition {
	/** The length of its vectors when `dimensions` is not sent; `dimensions` may ask for fewer. */
	dimensions: number;
}

/** FNV-1a, 32 bits. */
function hash(text: string): number {
	let value = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		value ^= text.charCodeAt(index);
		value = Math.imul(value, 0x01000193) >>> 0;
	}
	return value;
}

/**
 * The vector of `text`: each lower-cased word adds 1 or -1 (by its hash) at a place its hash picks, then the
 * vector is scaled to length 1. A text without words gets the first unit vector.
 */
export function vectorOf(text: string, dimensions: number): number[] {
	const vector = new Array<number>(dimensions).fill(0);
	for (const word of lowerWords(text)) {
		const value = hash(word);
		vector[value % dimensions] += value & 0x80000000 ? -1 : 1;
	}
	const length = Math.hypot(...vector);
	if (length === 0) vector[0] = 1;
	return length === 0 ? vector : vector.map((component) => component / length);
}

const embeddingModel = (id: string, dimensions: number): EmbeddingModel => ({
	id,
	created: releaseDate,
	ownedBy: 'local-embeddings',
	dimensions,
	respond: notForChat(id, 'an embedding model', '/v1/embeddings'),
});

export const embeddingModels: EmbeddingModel[] = [embeddingModel('embed-1', 512)];

export function isEmbeddingModel(model: ModelDefinition): model is EmbeddingModel {
	return 'dimensions' in model;
}
