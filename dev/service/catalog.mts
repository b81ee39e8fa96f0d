/** Which models a key's token group may call. */
import type { KeyRecord, ServiceConfig } from './config.mts';
import { ApiError } from './errors.mts';
import type { ModelDefinition } from './models/model.mts';
import { models } from './models/registry.mts';

/** OpenRouter's variants: `<model>:online` and the like are served by `<model>`, which alone is listed. */
const VARIANTS = ['online', 'nitro', 'floor', 'exacto', 'free', 'extended', 'thinking'];

/**
 * The ID of the model a request's `id` reaches in `key`'s group: the ID itself, the model of an OpenRouter
 * variant, or the model after the prefix of a wildcard route the group lists (`local/*` routes `local/echo-1`
 * to `echo-1`, as LiteLLM's `openai/*` routes to the provider).
 */
function routedId(config: ServiceConfig, key: KeyRecord, id: string): string {
	const colon = id.lastIndexOf(':');
	if (colon > 0 && VARIANTS.includes(id.slice(colon + 1))) return id.slice(0, colon);
	const group = config.groups.get(key.group) ?? [];
	const route = group.find((entry) => entry.endsWith('/*') && id.startsWith(entry.slice(0, -1)));
	return route === undefined ? id : id.slice(route.length - 1);
}

/**
 * The model `id` if `key` may call it; 404 when no such model exists, 403 when the group lacks it. A model
 * reached through a wildcard route counts as the group's.
 */
export function resolveModel(
	config: ServiceConfig,
	key: KeyRecord,
	asked: string,
): ModelDefinition {
	const id = routedId(config, key, asked);
	const routed = id !== asked && !asked.includes(':');
	const model = models.get(id);
	if (model === undefined) {
		throw new ApiError({
			status: 404,
			message: `The model \`${id}\` does not exist`,
			type: 'invalid_request_error',
			code: 'model_not_found',
		});
	}
	if (!routed && !(config.groups.get(key.group) ?? []).includes(id)) {
		throw new ApiError({
			status: 403,
			message: `The model \`${id}\` is not available to your token group \`${key.group}\``,
			type: 'invalid_request_error',
			code: 'model_not_found',
		});
	}
	return model;
}

/** The body of GET /models: exactly the models (and wildcard routes) of `key`'s group, in config order. */
export function modelList(config: ServiceConfig, key: KeyRecord): object {
	const ids = config.groups.get(key.group) ?? [];
	return {
		object: 'list',
		data: ids.flatMap((id) => {
			const model = models.get(id);
			if (model === undefined) return [{ id, object: 'model', created: 0, owned_by: 'route' }];
			return [{ id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy }];
		}),
	};
}
