import { supplyModel } from '@n8n/ai-node-sdk';
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	INode,
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';

import { connectionHint, optionsProperty } from './properties';
import { autoLimiter } from '../../engine/concurrency/limiter';
import { modelError } from '../../engine/chat-model/errors';
import { fitAdapter } from '../../engine/chat-model/langchain-adapter';
import { ChatCompletionsModel } from '../../engine/chat-model/model';
import type { ModelSettings } from '../../engine/chat-model/model';
import { modelSettings } from '../../engine/chat-model/settings';
import type { Connection } from '../../engine/connection';
import { connectionFrom } from '../../engine/connection';
import { testChatCompletionsApi } from '../../engine/models/credential-test';
import { modelProperty } from '../../engine/models/property';
import { searchModels } from '../../engine/models/search';
import { optionChoice } from '../../engine/options/read';
import { newFlow } from '../../engine/retry/flow';
import { CREDENTIAL_TYPE } from '../../engine/transport/http';

/** A wrong setting, shown as it is: n8n passes a sub-node's error on unchanged when it is marked so. */
function settingsError(node: INode, error: unknown, connection: Connection | undefined) {
	const nodeError = modelError(node, error, { ...connection });
	nodeError.functionality = 'configuration-node';
	return nodeError;
}

export class LmChatCompletions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Completions Chat Model',
		name: 'lmChatCompletions',
		icon: {
			light: 'file:../../icons/chat-completions.svg',
			dark: 'file:../../icons/chat-completions.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["model"]?.cachedResultName || $parameter["model"]?.value || "" }}',
		description:
			'Any model of an OpenAI-compatible chat-completions service, for the AI Agent and other AI nodes',
		defaults: { name: 'Chat Completions Chat Model' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		outputNames: ['Model'],
		credentials: [
			{ name: 'chatCompletionsApi', required: true, testedBy: 'testChatCompletionsApi' },
		],
		properties: [connectionHint, modelProperty, optionsProperty],
	};

	methods = {
		listSearch: { searchModels },
		credentialTest: { testChatCompletionsApi },
	};

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		let connection: Connection | undefined;
		let settings: ModelSettings;
		try {
			connection = connectionFrom(await this.getCredentials(CREDENTIAL_TYPE));
			const model = this.getNodeParameter('model', itemIndex, '', { extractValue: true });
			const options = this.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
			settings = modelSettings(connection, model, options);
		} catch (error) {
			throw settingsError(this.getNode(), error, connection);
		}
		// One flow for every call of this model in the execution: several requests may be in flight (an
		// agent with batching), and a Retry-After pauses all of them.
		const model = new ChatCompletionsModel(this, settings, newFlow(autoLimiter()));
		const supplied = supplyModel(this, model);
		fitAdapter(supplied.response, {
			jsonOutput: optionChoice(settings.options, 'responseFormat') !== 'text',
		});
		return supplied;
	}
}
