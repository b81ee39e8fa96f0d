/**
 * What the gateways tell of a model beside its ID (`model-shapes.mts` writes it in each gateway's shape): its
 * kind, its context length and output limit, and its prices in USD. Every model of a kind has the same facts; a
 * wildcard route (`local/*`) has none.
 */
import { isSpeechModel, isTranscriptionModel } from './models/audio.mts';
import { isEmbeddingModel } from './models/embedding.mts';
import { isImageModel } from './models/image.mts';
import type { ModelDefinition } from './models/model.mts';
import { isRerankModel } from './models/rerank.mts';
import { isVideoModel } from './models/video.mts';

export type ModelKind =
	| 'chat'
	| 'embeddings'
	| 'rerank'
	| 'image'
	| 'transcription'
	| 'speech'
	| 'video';

export interface ModelFacts {
	kind: ModelKind;
	contextLength?: number;
	maxOutputTokens?: number;
	/** USD per 1M input tokens and per 1M output tokens. */
	inputPerMillion?: number;
	outputPerMillion?: number;
	/** USD per call (a rerank, an image), per image made, per second of audio or video. */
	perCall?: number;
	perImage?: number;
	perSecond?: number;
}

const FACTS: Record<ModelKind, ModelFacts> = {
	chat: {
		kind: 'chat',
		contextLength: 128_000,
		maxOutputTokens: 16_384,
		inputPerMillion: 0.15,
		outputPerMillion: 0.6,
	},
	embeddings: { kind: 'embeddings', contextLength: 8192, inputPerMillion: 0.02 },
	rerank: { kind: 'rerank', contextLength: 8192, perCall: 0.002 },
	image: { kind: 'image', perCall: 0.04, perImage: 0.04 },
	transcription: { kind: 'transcription', perSecond: 0.0001 },
	// A speech model whose price no gateway tells.
	speech: { kind: 'speech' },
	video: { kind: 'video', perSecond: 0.1 },
};

/** The facts of a model of the service. */
export function factsOf(model: ModelDefinition): ModelFacts {
	if (isEmbeddingModel(model)) return FACTS.embeddings;
	if (isRerankModel(model)) return FACTS.rerank;
	if (isImageModel(model)) return FACTS.image;
	if (isTranscriptionModel(model)) return FACTS.transcription;
	if (isSpeechModel(model)) return FACTS.speech;
	if (isVideoModel(model)) return FACTS.video;
	return FACTS.chat;
}
