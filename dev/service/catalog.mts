/** Which models a key's token group may call. */
import type { KeyRecord, ServiceConfig } from './config.mts';
import { ApiError } from './errors.mts';
import type { ModelDefinition } from './models/model.mts';
import { models } from './models/registry.mts';

/** The model `id` if `key` may call it; 404 when no such model exists, 403 when the group lacks it. */
export function resolveModel(config: ServiceConfig, key: KeyRecord, id: string): ModelDefinition {
	const model = models.get(id);
	if (model === undefined) {
		throw new ApiError({
			status: 404,
			message: `The model \`${id}\` does not exist`,
			type: 'invalid_request_error',
			code: 'model_not_found',
		});
	}
	if (!(config.groups.get(key.group) ?? []).includes(id)) {
		throw new ApiError({
			status: 403,
			message: `The model \`${id}\` is not available to your token group \`${key.group}\``,
			type: 'invalid_request_error',
			code: 'model_not_found',
		});
	}
	return model;
}

/** The body of GET /models: exactly the models of `key`'s group, in config order. */
export function modelList(config: ServiceConfig, key: KeyRecord): object {
	const ids = config.groups.get(key.group) ?? [];
	return {
		object: 'list',
		data: ids
			.flatMap((id) => models.get(id) ?? [])
			.map((model) => ({
				id: model.id,
				object: 'model',
				created: model.created,
				owned_by: model.ownedBy,
			})),
	};
}
