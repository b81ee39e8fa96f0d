/** Every model the service knows, by id; config.json's token groups pick from these. */
import { speechModel, transcriptionModel } from './audio.mts';
import { echoModel, echoModels } from './echo.mts';
import { embeddingModels } from './embedding.mts';
import { faultModels } from './faults.mts';
import { imageModels } from './image.mts';
import { jsonModel } from './json.mts';
import type { ModelDefinition } from './model.mts';
import { reasoningModels } from './reasoning.mts';
import { rerankModels } from './rerank.mts';
import { textOnly, withoutFiles, withoutImageOutput } from './text-only.mts';
import { thinkingToolsModel } from './thinking-tools.mts';
import { toolsModel } from './tools.mts';
import { videoModels } from './video.mts';
import { visionModel } from './vision.mts';

export const models: ReadonlyMap<string, ModelDefinition> = new Map(
	[
		...[
			...[...echoModels, ...reasoningModels, toolsModel, thinkingToolsModel, jsonModel].map(
				textOnly,
			),
			withoutFiles(textOnly(echoModel('no-files-1'))),
			visionModel,
		].map(withoutImageOutput),
		...faultModels,
		...embeddingModels,
		...rerankModels,
		...imageModels,
		transcriptionModel,
		speechModel,
		...videoModels,
	].map((model) => [model.id, model]),
);
