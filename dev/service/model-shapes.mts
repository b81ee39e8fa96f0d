/**
 * The model list in each gateway's shape, picked by the request's `x-local-models` header (a test knob: the
 * credential's Extra Headers carry it), words separated by spaces:
 * - `openrouter`: `GET /v1/models` lists text-output models only unless `output_modalities` asks for others
 *   (`all`, or modalities separated by commas); each model has `architecture`, `context_length`, `top_provider`
 *   and `pricing` (USD per token, as strings);
 * - `new-api`: each model has `supported_endpoint_types`, and `GET /api/pricing` (site root) tells its ratios and
 *   the group ratios (the `default` group's is 2);
 * - `litellm`: `GET /model/info` (site root) tells each model's `mode`, limits and costs;
 * - `strict`: `GET /v1/models` refuses any query parameter with a 400, as a gateway that checks them.
 * Without the header the list is as it was (no tags), the query ignored, and the other routes answer 404.
 */
import type { IncomingMessage } from 'node:http';
import { modelList } from './catalog.mts';
import type { KeyRecord, ServiceConfig } from './config.mts';
import { ApiError } from './errors.mts';
import type { ModelFacts, ModelKind } from './model-facts.mts';
import { factsOf } from './model-facts.mts';
import { models } from './models/registry.mts';

/** The model endpoints at the site root, outside /v1. */
export const ROOT_MODEL_PATHS = ['/api/pricing', '/model/info'];

/** The `default` group's ratio in new-api's pricing: prices are twice the model's own. */
const DEFAULT_GROUP_RATIO = 2;

/** new-api's ratio 1 is $2 per 1M input tokens. */
const USD_PER_MILLION_AT_RATIO_1 = 2;

const OUTPUT_MODALITIES: Record<ModelKind, string[]> = {
	chat: ['text'],
	embeddings: ['embeddings'],
	rerank: ['rerank'],
	image: ['image'],
	transcription: ['transcription'],
	speech: ['speech'],
	video: ['video'],
};

const ENDPOINT_TYPES: Record<ModelKind, string[]> = {
	chat: ['openai', 'openai-response'],
	embeddings: ['embeddings'],
	rerank: ['jina-rerank'],
	image: ['image-generation'],
	// new-api has no endpoint type for audio: its audio models are tagged as OpenAI's.
	transcription: ['openai'],
	speech: ['openai'],
	video: ['openai-video'],
};

const LITELLM_MODES: Record<ModelKind, string> = {
	chat: 'chat',
	embeddings: 'embedding',
	rerank: 'rerank',
	image: 'image_generation',
	transcription: 'audio_transcription',
	speech: 'audio_speech',
	video: 'video_generation',
};

type Entry = { id: string } & Record<string, unknown>;

const perToken = (perMillion: number | undefined) =>
	perMillion === undefined ? undefined : String(perMillion / 1_000_000);

function openRouterFields(facts: ModelFacts): object {
	return {
		architecture: {
			input_modalities: facts.kind === 'transcription' ? ['audio'] : ['text'],
			output_modalities: OUTPUT_MODALITIES[facts.kind],
		},
		context_length: facts.contextLength ?? null,
		top_provider: { max_completion_tokens: facts.maxOutputTokens ?? null },
		pricing: {
			prompt: perToken(facts.inputPerMillion) ?? '0',
			completion: perToken(facts.outputPerMillion) ?? '0',
			...(facts.perCall === undefined ? {} : { request: String(facts.perCall) }),
		},
	};
}

/** OpenRouter's filter: text-output models unless `output_modalities` says otherwise. */
function openRouterShows(entry: Entry, asked: string | null): boolean {
	const model = models.get(entry.id);
	if (model === undefined) return true;
	if (asked === 'all') return true;
	const wanted = (asked ?? 'text').split(',').map((word) => word.trim());
	return OUTPUT_MODALITIES[factsOf(model).kind].some((modality) => wanted.includes(modality));
}

function styles(req: IncomingMessage): string[] {
	return String(req.headers['x-local-models'] ?? '')
		.split(' ')
		.filter((word) => word !== '');
}

/** The body of GET /v1/models for `key`, in the shape the request's header names. */
export function modelsReply(
	req: IncomingMessage,
	config: ServiceConfig,
	key: KeyRecord,
	query: URLSearchParams,
): object {
	const style = styles(req);
	const parameter = [...query.keys()][0];
	if (style.includes('strict') && parameter !== undefined) {
		throw new ApiError({
			status: 400,
			message: `Unknown parameter: ${parameter}`,
			type: 'invalid_request_error',
			code: 'unknown_parameter',
			param: parameter,
		});
	}
	const list = modelList(config, key) as { object: string; data: Entry[] };
	const tagged = (entry: Entry, tags: (facts: ModelFacts) => object): Entry => {
		const model = models.get(entry.id);
		return model === undefined ? entry : { ...entry, ...tags(factsOf(model)) };
	};
	if (style.includes('openrouter')) {
		const asked = query.get('output_modalities');
		return {
			...list,
			data: list.data
				.filter((entry) => openRouterShows(entry, asked))
				.map((entry) => tagged(entry, openRouterFields)),
		};
	}
	if (style.includes('new-api')) {
		return {
			...list,
			data: list.data.map((entry) =>
				tagged(entry, (facts) => ({ supported_endpoint_types: ENDPOINT_TYPES[facts.kind] })),
			),
		};
	}
	return list;
}

/** The key's models with their facts (routes have none). */
function keyModels(config: ServiceConfig, key: KeyRecord) {
	return (config.groups.get(key.group) ?? []).flatMap((id) => {
		const model = models.get(id);
		return model === undefined ? [] : [{ id, facts: factsOf(model) }];
	});
}

/** new-api's `GET /api/pricing`: the ratios of the models that have a price (the audio models have none). */
function newApiPricing(config: ServiceConfig, key: KeyRecord): object {
	return {
		success: true,
		data: keyModels(config, key)
			.filter(({ facts }) => facts.inputPerMillion !== undefined || facts.perCall !== undefined)
			.map(({ id, facts }) => {
				const model = models.get(id)!;
				const tags = {
					model_name: id,
					owner_by: model.ownedBy,
					enable_groups: ['default'],
					supported_endpoint_types: ENDPOINT_TYPES[facts.kind],
				};
				if (facts.inputPerMillion === undefined) {
					return {
						...tags,
						quota_type: 1,
						model_ratio: 0,
						model_price: facts.perCall,
						completion_ratio: 1,
					};
				}
				const ratio = facts.inputPerMillion / USD_PER_MILLION_AT_RATIO_1;
				return {
					...tags,
					quota_type: 0,
					model_ratio: ratio,
					model_price: 0,
					completion_ratio:
						(facts.outputPerMillion ?? facts.inputPerMillion) / facts.inputPerMillion,
				};
			}),
		group_ratio: { default: DEFAULT_GROUP_RATIO, vip: 1 },
		usable_group: { default: 'Default', vip: 'VIP' },
	};
}

/** LiteLLM's `GET /model/info`: each model's mode, limits and costs (per token, per image, per second). */
function liteLlmModelInfo(config: ServiceConfig, key: KeyRecord): object {
	const cost = (perMillion: number | undefined) =>
		perMillion === undefined ? null : perMillion / 1_000_000;
	return {
		data: keyModels(config, key).map(({ id, facts }) => ({
			model_name: id,
			litellm_params: { model: `local/${id}` },
			model_info: {
				mode: LITELLM_MODES[facts.kind],
				max_input_tokens: facts.contextLength ?? null,
				max_output_tokens: facts.maxOutputTokens ?? null,
				input_cost_per_token: cost(facts.inputPerMillion),
				output_cost_per_token: cost(facts.outputPerMillion),
				output_cost_per_image: facts.perImage ?? null,
				input_cost_per_second: facts.perSecond ?? null,
			},
		})),
	};
}

/** The answer of a root model route for `key`; undefined when the route is none or the header names another style. */
export function modelRouteReply(
	req: IncomingMessage,
	route: string,
	config: ServiceConfig,
	key: KeyRecord,
): object | undefined {
	const style = styles(req);
	if (route === 'GET /api/pricing' && style.includes('new-api')) return newApiPricing(config, key);
	if (route === 'GET /model/info' && style.includes('litellm'))
		return liteLlmModelInfo(config, key);
	return undefined;
}
