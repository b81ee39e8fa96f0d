import { supplyModel } from '@n8n/ai-node-sdk';
import type { ISupplyDataFunctions, SupplyData } from 'n8n-workflow';

import { fitAdapter } from './langchain-adapter';
import { ChatCompletionsModel } from './model';
import type { ModelSettings } from './model';
import { optionChoice, optionValue, startRun } from '../../../engine';

/**
 * The model for n8n's AI nodes, wrapped by the AI node SDK. This module and what it imports need the SDK:
 * it is loaded only when a model is supplied (`load-sdk.ts`), never when n8n loads the node.
 */
export function supplyChatModel(
	context: ISupplyDataFunctions,
	settings: ModelSettings,
): SupplyData {
	// One run for every call of this model in the execution: several requests may be in flight (an
	// agent with batching, Auto).
	const model = new ChatCompletionsModel(context, settings, startRun(context, settings.connection));
	const supplied = supplyModel(context, model);
	fitAdapter(supplied.response, {
		jsonOutput: optionChoice(settings.options, 'responseFormat') !== 'text',
		tracing: {
			model: settings.model,
			temperature: optionValue(settings.options, 'temperature'),
			maxTokens: optionValue(settings.options, 'maxTokens'),
		},
		failure: (error) => model.failure(error),
	});
	return supplied;
}
