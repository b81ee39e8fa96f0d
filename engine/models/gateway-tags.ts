/**
 * What gateways tell of a model beside its ID, one row per shape they tell it in: the tags of a `GET /models`
 * entry (OpenRouter's modalities, limits and prices; new-api's endpoint types), new-api's `GET /api/pricing`
 * (its ratios, converted as its pricing page shows them) and LiteLLM's `GET /model/info` (each model's `mode`,
 * limits and costs). Pure: each row reads an answer already parsed.
 */
import { isPlainObject } from '../values';

/** What a model is for: which node can use it. */
export type ModelKind =
	| 'chat'
	| 'embeddings'
	| 'rerank'
	| 'image'
	| 'transcription'
	| 'speech'
	| 'video';

export const MODEL_KINDS: readonly ModelKind[] = [
	'chat',
	'embeddings',
	'rerank',
	'image',
	'transcription',
	'speech',
	'video',
];

/** Prices in USD: per 1M input and output tokens, per image made, per second of audio, per call. */
export interface ModelPricing {
	inputPerMillion?: number;
	outputPerMillion?: number;
	perImage?: number;
	perSecond?: number;
	perCall?: number;
}

/** What one source tells of a model; `tells` the kinds it can tell at all (a kind it cannot tell stays unknown). */
export interface ModelTags {
	kinds?: ModelKind[];
	tells?: readonly ModelKind[];
	contextLength?: number;
	maxOutputTokens?: number;
	pricing?: ModelPricing;
}

type Json = Record<string, unknown>;

const positive = (value: unknown): number | undefined => {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
};

/** A figure without binary fractions' tails (0.075 * 2 is 0.15, not 0.15000000000000002). */
const exact = (value: number) => Math.round(value * 1e12) / 1e12;

const perMillion = (perToken: unknown) => {
	const value = positive(perToken);
	return value === undefined ? undefined : exact(value * 1_000_000);
};

/** The prices given, or undefined when none is. */
function pricingOf(pricing: ModelPricing): ModelPricing | undefined {
	const given = Object.entries(pricing).filter(([, value]) => value !== undefined);
	return given.length === 0 ? undefined : (Object.fromEntries(given) as ModelPricing);
}

function kindsFrom(words: unknown, table: Record<string, ModelKind>): ModelKind[] | undefined {
	if (!Array.isArray(words)) return undefined;
	const kinds = new Set<ModelKind>();
	for (const word of words) if (typeof word === 'string' && word in table) kinds.add(table[word]);
	return MODEL_KINDS.filter((kind) => kinds.has(kind));
}

/** OpenRouter's `architecture.output_modalities`. */
const OPENROUTER_OUTPUTS: Record<string, ModelKind> = {
	text: 'chat',
	embeddings: 'embeddings',
	rerank: 'rerank',
	image: 'image',
	transcription: 'transcription',
	speech: 'speech',
	video: 'video',
};

/** new-api's `supported_endpoint_types`: it has none for audio, so audio kinds stay unknown. */
const NEW_API_ENDPOINTS: Record<string, ModelKind> = {
	openai: 'chat',
	'openai-response': 'chat',
	anthropic: 'chat',
	gemini: 'chat',
	embeddings: 'embeddings',
	'jina-rerank': 'rerank',
	'image-generation': 'image',
	'openai-video': 'video',
};
const NEW_API_TELLS: readonly ModelKind[] = ['chat', 'embeddings', 'rerank', 'image', 'video'];

/** LiteLLM's `mode`. */
const LITELLM_MODES: Record<string, ModelKind> = {
	chat: 'chat',
	completion: 'chat',
	responses: 'chat',
	embedding: 'embeddings',
	rerank: 'rerank',
	image_generation: 'image',
	image_edit: 'image',
	audio_transcription: 'transcription',
	audio_speech: 'speech',
	video_generation: 'video',
};

/** OpenRouter's model fields: modalities, `context_length`, `top_provider`, `pricing` in USD per token. */
function openRouterTags(entry: Json): ModelTags | undefined {
	const architecture = entry.architecture;
	if (!isPlainObject(architecture)) return undefined;
	const kinds = kindsFrom(architecture.output_modalities, OPENROUTER_OUTPUTS);
	const pricing = isPlainObject(entry.pricing) ? entry.pricing : {};
	const prices = {
		inputPerMillion: perMillion(pricing.prompt),
		outputPerMillion: perMillion(pricing.completion),
		perCall: positive(pricing.request),
	};
	// A model priced by some of these lists the others as 0, which say nothing; all 0 is a free model.
	const free = Object.values(prices).every((price) => !price);
	const provider = isPlainObject(entry.top_provider) ? entry.top_provider : {};
	return {
		kinds,
		tells: MODEL_KINDS,
		contextLength: positive(entry.context_length) || undefined,
		maxOutputTokens: positive(provider.max_completion_tokens) || undefined,
		pricing: pricingOf(
			free
				? { inputPerMillion: prices.inputPerMillion, outputPerMillion: prices.outputPerMillion }
				: Object.fromEntries(
						Object.entries(prices).map(([name, price]) => [name, price || undefined]),
					),
		),
	};
}

/** The tags of a `GET /models` entry, in the first shape that fits (OpenRouter's, new-api's); undefined when none. */
export function listEntryTags(entry: Json): ModelTags | undefined {
	const openRouter = openRouterTags(entry);
	if (openRouter !== undefined) return openRouter;
	const kinds = kindsFrom(entry.supported_endpoint_types, NEW_API_ENDPOINTS);
	return kinds === undefined ? undefined : { kinds, tells: NEW_API_TELLS };
}

/** A source of tags besides the list: an endpoint (under the site root) and its reader, tags by model ID. */
export interface TagSource {
	path: string;
	read(answer: Json): Map<string, ModelTags> | undefined;
}

/** new-api's ratio 1 is $2 per 1M input tokens (its pricing page: the ratio times 2, times the group's ratio). */
const USD_PER_MILLION_AT_RATIO_1 = 2;

/**
 * new-api's `GET /api/pricing`: per model `quota_type` 0 (per token: `model_ratio` x 2 x the group ratio per 1M
 * input tokens, that times `completion_ratio` per 1M output tokens) or 1 (`model_price` x the group ratio per
 * call), with the `default` group's ratio (1 when it gives none); its endpoint types as in the list.
 */
const NEW_API_PRICING: TagSource = {
	path: 'api/pricing',
	read: (answer) => {
		if (!Array.isArray(answer.data)) return undefined;
		const groups = isPlainObject(answer.group_ratio) ? answer.group_ratio : {};
		const group = positive(groups.default) ?? 1;
		const tags = new Map<string, ModelTags>();
		for (const model of answer.data) {
			if (!isPlainObject(model) || typeof model.model_name !== 'string') continue;
			const kinds = kindsFrom(model.supported_endpoint_types, NEW_API_ENDPOINTS);
			let pricing: ModelPricing | undefined;
			if (model.quota_type === 1 && positive(model.model_price) !== undefined) {
				pricing = { perCall: exact(positive(model.model_price)! * group) };
			} else if (model.quota_type === 0 && positive(model.model_ratio) !== undefined) {
				const input = exact(positive(model.model_ratio)! * USD_PER_MILLION_AT_RATIO_1 * group);
				const output = exact(input * (positive(model.completion_ratio) ?? 1));
				pricing = { inputPerMillion: input, outputPerMillion: output };
			}
			tags.set(model.model_name, {
				...(kinds === undefined ? {} : { kinds, tells: NEW_API_TELLS }),
				pricing,
			});
		}
		return tags;
	},
};

/** LiteLLM's `GET /model/info`: `mode`, `max_input_tokens`, `max_output_tokens` and the costs of each model. */
const LITELLM_MODEL_INFO: TagSource = {
	path: 'model/info',
	read: (answer) => {
		if (!Array.isArray(answer.data)) return undefined;
		const tags = new Map<string, ModelTags>();
		for (const model of answer.data) {
			if (!isPlainObject(model) || typeof model.model_name !== 'string') continue;
			const info = isPlainObject(model.model_info) ? model.model_info : {};
			const mode = typeof info.mode === 'string' ? LITELLM_MODES[info.mode] : undefined;
			tags.set(model.model_name, {
				...(mode === undefined ? {} : { kinds: [mode], tells: MODEL_KINDS }),
				contextLength: positive(info.max_input_tokens) || positive(info.max_tokens) || undefined,
				maxOutputTokens: positive(info.max_output_tokens) || undefined,
				pricing: pricingOf({
					inputPerMillion: perMillion(info.input_cost_per_token),
					outputPerMillion: perMillion(info.output_cost_per_token),
					perImage: positive(info.output_cost_per_image),
					perSecond: positive(info.input_cost_per_second) ?? positive(info.output_cost_per_second),
				}),
			});
		}
		return tags;
	},
};

/** The sources asked beside the list, in the order their tags are preferred. */
export const TAG_SOURCES: readonly TagSource[] = [NEW_API_PRICING, LITELLM_MODEL_INFO];
