/** Every model the service knows, by id; config.json's token groups pick from these. */
import { echoModels } from './echo.mts';
import { faultModels } from './faults.mts';
import type { ModelDefinition } from './model.mts';
import { reasoningModels } from './reasoning.mts';

export const models: ReadonlyMap<string, ModelDefinition> = new Map(
	[...echoModels, ...reasoningModels, ...faultModels].map((model) => [model.id, model]),
);
