/** The Chat Completion node and its credential, wired into the n8n-core engine harness. */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import type { Engine } from '../../dev/n8n-core/harness.cts';

export const NODE_TYPE = 'n8n-nodes-chat-completions.chatCompletion';

/** An engine with Chat Completion and its credential: the key, the Base URL and `more` of its fields. */
export function engineWith(apiKey: string, baseUrl: string, more: IDataObject = {}): Engine {
	return createEngine({
		nodeTypes: { [NODE_TYPE]: new ChatCompletion() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: { apiKey, baseUrl, ...more } },
	});
}

export function modelFromList(model: string): INodeParameters {
	return { __rl: true, mode: 'list', value: model, cachedResultName: model };
}

/** Parameters of a node in Simple mode; `extra` adds or overrides any parameter. */
export function simpleParameters(
	prompt: string,
	model = 'echo-1',
	extra: INodeParameters = {},
): INodeParameters {
	return { model: modelFromList(model), promptType: 'simple', prompt, ...extra };
}

export function jsonItems(...values: IDataObject[]): INodeExecutionData[] {
	return values.map((json) => ({ json }));
}

/**
 * Runs the node on one empty item with On Error: Continue and returns that item's json (the run itself must not
 * fail); `more` adds to the credential (Extra Headers, say).
 */
export async function runOneItem(
	apiKey: string,
	baseUrl: string,
	parameters: INodeParameters,
	more: IDataObject = {},
): Promise<IDataObject> {
	const { outputs, error } = await engineWith(apiKey, baseUrl, more).runNode({
		type: NODE_TYPE,
		parameters,
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(error).toBeUndefined();
	return outputs[0][0].json;
}
