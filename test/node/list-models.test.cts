/**
 * The Account node's List Models through n8n's engine: one item per model the key may call, with its kinds,
 * limits and prices in one shape and the endpoints that told them, against the local service in OpenRouter's,
 * new-api's and LiteLLM's shapes (its `x-local-models` header, sent as the credential's Extra Headers).
 */
import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { AccountChatCompletions } from '../../nodes/AccountChatCompletions/AccountChatCompletions.node';
import { CATALOGUE_MODELS, catalogueCredentials } from '../support/listed-models.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const TYPE = 'n8n-nodes-chat-completions.accountChatCompletions';

async function listModels(shape?: string, apiKey = keys.catalogue) {
	return await createEngine({
		nodeTypes: { [TYPE]: new AccountChatCompletions() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: catalogueCredentials(service().baseUrl, shape, apiKey),
	}).runNode({
		type: TYPE,
		parameters: { operation: 'listModels' },
		items: [{ json: { a: 1 } }, { json: { a: 2 } }],
	});
}

const NO_PRICE = {
	currency: 'USD',
	input_per_million: null,
	output_per_million: null,
	per_image: null,
	per_second: null,
	per_call: null,
};

describe('List Models', () => {
	it('OpenRouter: every model of every modality, each with its kinds, limits and prices, paired with the first item', async () => {
		const { outputs, error } = await listModels('openrouter');
		expect(error).toBeUndefined();
		const items = outputs[0];
		expect(items.map((item) => item.json.id)).toEqual(CATALOGUE_MODELS);
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(items[0].json).toEqual({
			id: 'echo-1',
			owned_by: expect.any(String),
			kinds: ['chat'],
			context_length: 128000,
			max_output_tokens: 16384,
			pricing: { ...NO_PRICE, input_per_million: 0.15, output_per_million: 0.6 },
			source: 'GET /models',
		});
		expect(items.find((item) => item.json.id === 'local/*')?.json).toMatchObject({
			kinds: [],
			context_length: null,
			pricing: NO_PRICE,
		});
		// One round: the list, the endpoints that may tell prices and, on OpenRouter's shape, its video models, once
		// each, whatever the number of items.
		const paths = (await service().requests()).map((request) => request.path).sort();
		expect(paths).toEqual([
			'/api/pricing',
			'/model/info',
			'/v1/models?output_modalities=all',
			'/v1/videos/models',
		]);
	});

	it("new-api: the endpoint types, and /api/pricing's ratios as dollars with the default group's ratio", async () => {
		const { outputs } = await listModels('new-api');
		const of = (id: string) => outputs[0].find((item) => item.json.id === id)?.json;
		expect(of('echo-1')).toMatchObject({
			kinds: ['chat'],
			pricing: { ...NO_PRICE, input_per_million: 0.3, output_per_million: 1.2 },
			source: 'GET /models + GET /api/pricing',
		});
		expect(of('rerank-1')).toMatchObject({
			kinds: ['rerank'],
			pricing: { ...NO_PRICE, per_call: 0.004 },
		});
	});

	it("LiteLLM: /model/info's modes and costs", async () => {
		const { outputs } = await listModels('litellm');
		const of = (id: string) => outputs[0].find((item) => item.json.id === id)?.json;
		expect(of('whisper-local')).toMatchObject({
			kinds: ['transcription'],
			pricing: { ...NO_PRICE, per_second: 0.0001 },
			source: 'GET /models + GET /model/info',
		});
		expect(of('image-1')).toMatchObject({
			kinds: ['image'],
			pricing: { ...NO_PRICE, per_image: 0.04 },
		});
	});

	it('a rejected key fails the node in the words of the failure table', async () => {
		const { error } = await listModels('openrouter', 'sk-example-wrong-key');
		expect(error?.message).toMatch(/key/i);
		expect(JSON.stringify(error)).not.toContain('sk-example-wrong-key');
	});
});
