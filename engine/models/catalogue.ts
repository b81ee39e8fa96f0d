/**
 * The catalogue of the key's models: `GET /models?output_modalities=all` (OpenRouter lists text-output models
 * only without it; a gateway that refuses the parameter gets the bare `GET /models`), with what each source tells
 * of each model (gateway-tags.ts): its kinds, limits and prices; on a list in OpenRouter's shape, its video models
 * too (`GET /videos/models`: they are not in `/models`). Read once per list search or execution.
 */
import type { ModelKind, ModelPricing, ModelTags } from './gateway-tags';
import { listEntryTags, MODEL_KINDS, TAG_SOURCES } from './gateway-tags';
import { balanceAnswer } from '../account/balance';
import { ServiceError } from '../failures/errors';
import { classify } from '../failures/table';
import type { ModelObject } from '../reply/models';
import { modelObjects } from '../reply/models';
import type { PathGet } from '../transport/outgoing';

export type { ModelKind, ModelPricing } from './gateway-tags';

export interface CatalogueModel {
	id: string;
	ownedBy?: string;
	/** What the gateway says it is for; empty when no source tells. */
	kinds: ModelKind[];
	/** The kinds its source can tell: a kind outside them is unknown for this model. */
	tells: readonly ModelKind[];
	contextLength?: number;
	maxOutputTokens?: number;
	pricing?: ModelPricing;
	/** The endpoints that told what is known of it: `GET /models + GET /api/pricing`. */
	source: string;
}

const ALL_MODALITIES = 'models?output_modalities=all';
const LIST_SOURCE = 'GET /models';

/** The list with every modality; the bare list when the gateway refuses the parameter (a 4xx not about the key). */
async function listAll(get: PathGet): Promise<ModelObject[]> {
	const all = await get({ path: ALL_MODALITIES }, modelObjects).then(
		(models) => ({ models }),
		(failure: unknown) => ({ failure }),
	);
	if ('models' in all) return all.models;
	const { failure } = all;
	const refused =
		failure instanceof ServiceError &&
		failure.status >= 400 &&
		failure.status < 500 &&
		classify(failure).lasting !== 'key';
	if (!refused) throw failure;
	return await get({ path: 'models' }, modelObjects);
}

const VIDEO_SOURCE = 'GET /videos/models';

/**
 * OpenRouter's video models (`GET /videos/models`), asked only when the list is in OpenRouter's shape (its
 * entries have `architecture`); none when it does not answer. Each is a video model.
 */
async function videoModels(get: PathGet, list: ModelObject[]): Promise<CatalogueModel[]> {
	if (!list.some((entry) => entry.architecture !== undefined)) return [];
	const videos = await get({ path: 'videos/models' }, modelObjects).catch(() => []);
	const listed = new Set(list.map((entry) => entry.id));
	return videos
		.filter((entry) => !listed.has(entry.id))
		.map((entry) => ({ id: entry.id, kinds: ['video'], tells: MODEL_KINDS, source: VIDEO_SOURCE }));
}

/** One source's tags by model ID; nothing when it does not answer (most gateways have no such endpoint). */
async function tagsFrom(
	get: PathGet,
	path: string,
	read: (answer: Record<string, unknown>) => Map<string, ModelTags> | undefined,
): Promise<Map<string, ModelTags>> {
	try {
		const answer = await get({ path, root: true }, balanceAnswer);
		return (answer === undefined ? undefined : read(answer)) ?? new Map();
	} catch {
		return new Map();
	}
}

/** The first defined of a field across the sources that told something, in order. */
function first<K extends keyof ModelTags>(told: ModelTags[], key: K): ModelTags[K] {
	return told.map((tags) => tags[key]).find((value) => value !== undefined);
}

/**
 * The key's models, sorted by ID, each with what the sources tell (the list's own tags first, then new-api's
 * pricing, then LiteLLM's model info). A failure of the list throws as any request's; the other sources are
 * asked at the same time and left out when they do not answer.
 */
export async function readCatalogue(get: PathGet): Promise<CatalogueModel[]> {
	const [list, ...extra] = await Promise.all([
		listAll(get),
		...TAG_SOURCES.map(async (source) => await tagsFrom(get, source.path, source.read)),
	]);
	const videos = await videoModels(get, list);
	const models = list.map((entry): CatalogueModel => {
		const sources = [
			{ name: LIST_SOURCE, tags: listEntryTags(entry) },
			...TAG_SOURCES.map((source, index) => ({
				name: `GET /${source.path}`,
				tags: extra[index].get(entry.id),
			})),
		].filter((source): source is { name: string; tags: ModelTags } => source.tags !== undefined);
		const told = sources.map((source) => source.tags);
		const kinded = told.find((tags) => tags.kinds !== undefined && tags.kinds.length > 0);
		return {
			id: entry.id,
			ownedBy: typeof entry.owned_by === 'string' ? entry.owned_by : undefined,
			kinds: kinded?.kinds ?? [],
			tells: kinded?.tells ?? [],
			contextLength: first(told, 'contextLength'),
			maxOutputTokens: first(told, 'maxOutputTokens'),
			pricing: first(told, 'pricing'),
			source: [LIST_SOURCE, ...sources.map((source) => source.name)]
				.filter((name, index, names) => names.indexOf(name) === index)
				.join(' + '),
		};
	});
	return [...models, ...videos].sort((a, b) => a.id.localeCompare(b.id));
}

/** Whether a node that needs `kind` can use the model: it is of that kind, or its source cannot tell. */
export function usableFor(model: CatalogueModel, kind: ModelKind): boolean {
	return model.kinds.includes(kind) || !model.tells.includes(kind);
}
