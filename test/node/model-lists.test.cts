/**
 * Each node's Model list through n8n's engine shows the models the node can use, with their prices and context,
 * against the local service in OpenRouter's, new-api's and LiteLLM's shapes (its `x-local-models` header, sent as
 * the credential's Extra Headers); models whose kind the gateway does not tell stay in every list.
 */
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node';
import { EmbeddingsChatCompletions } from '../../nodes/EmbeddingsChatCompletions/EmbeddingsChatCompletions.node';
import { LmChatCompletions } from '../../nodes/LmChatCompletions/LmChatCompletions.node';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { RerankerChatCompletions } from '../../nodes/RerankerChatCompletions/RerankerChatCompletions.node';
import { CATALOGUE_MODELS, catalogueCredentials } from '../support/listed-models.cts';
import { useLocalService } from '../support/service.cts';

const service = useLocalService();

const NODES: Record<string, INodeType> = {
	chat: new ChatCompletion(),
	chatModel: new LmChatCompletions(),
	embeddings: new EmbeddingsChatCompletions(),
	reranker: new RerankerChatCompletions(),
	media: new MediaChatCompletions(),
};

async function list(node: string, shape?: string, parameters: INodeParameters = {}) {
	const engine = createEngine({
		nodeTypes: { [node]: NODES[node] },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: catalogueCredentials(service().baseUrl, shape),
	});
	const result = await engine.listSearch({ type: node, method: 'searchModels', parameters });
	return Object.fromEntries(result.results.map((entry) => [entry.name, entry.description]));
}

const names = (entries: Record<string, unknown>) => Object.keys(entries);

const CHAT = '$0.15 in / $0.60 out per 1M tokens, 128k context';

describe("OpenRouter's shape", () => {
	it('each list holds the models of its kind, asked with output_modalities=all, priced', async () => {
		expect(await list('chat', 'openrouter')).toEqual({
			'echo-1': CHAT,
			'local/*': 'Owned by route',
			'vision-1': CHAT,
		});
		expect(names(await list('chatModel', 'openrouter'))).toEqual(['echo-1', 'local/*', 'vision-1']);
		expect(await list('embeddings', 'openrouter')).toEqual({
			'embed-1': '$0.02 per 1M tokens, 8k context',
			'local/*': 'Owned by route',
		});
		expect(await list('reranker', 'openrouter')).toEqual({
			'local/*': 'Owned by route',
			'rerank-1': '$0.002 per call, 8k context',
		});
		const paths = (await service().requests()).map((request) => request.path);
		expect(paths).toContain('/v1/models?output_modalities=all');
	});

	it("Media's list follows the operation chosen", async () => {
		expect(
			names(await list('media', 'openrouter', { resource: 'image', operation: 'generate' })),
		).toEqual(['image-1', 'local/*']);
		expect(
			names(await list('media', 'openrouter', { resource: 'audio', operation: 'transcribe' })),
		).toEqual(['local/*', 'whisper-local']);
		expect(
			names(await list('media', 'openrouter', { resource: 'audio', operation: 'generate' })),
		).toEqual(['local/*', 'tts-local']);
	});
});

describe("new-api's shape", () => {
	it("filters by endpoint type, prices with the default group's ratio, and keeps audio models in every list", async () => {
		expect(await list('chat', 'new-api')).toEqual({
			'echo-1': '$0.30 in / $1.20 out per 1M tokens',
			'local/*': 'Owned by route',
			'tts-local': expect.any(String),
			'vision-1': '$0.30 in / $1.20 out per 1M tokens',
			'whisper-local': expect.any(String),
		});
		expect(names(await list('embeddings', 'new-api'))).toEqual(['embed-1', 'local/*']);
		// new-api has no endpoint type for audio: every model stays in the audio lists.
		expect(
			names(await list('media', 'new-api', { resource: 'audio', operation: 'transcribe' })),
		).toEqual(CATALOGUE_MODELS);
		expect(
			await list('media', 'new-api', { resource: 'image', operation: 'generate' }),
		).toMatchObject({
			'image-1': '$0.08 per call',
		});
	});
});

describe("LiteLLM's shape", () => {
	it('filters by /model/info mode, with its costs', async () => {
		expect(await list('media', 'litellm', { resource: 'audio', operation: 'transcribe' })).toEqual({
			'local/*': 'Owned by route',
			'whisper-local': '$0.0001 per second',
		});
		expect(await list('media', 'litellm', { resource: 'image', operation: 'edit' })).toEqual({
			'image-1': '$0.04 per image',
			'local/*': 'Owned by route',
		});
		expect(await list('media', 'litellm', { resource: 'audio', operation: 'generate' })).toEqual({
			'local/*': 'Owned by route',
			'tts-local': 'Owned by local-audio',
		});
	});
});

describe('a gateway that tells no kind', () => {
	it('keeps every model in every list, and one that refuses output_modalities gets the bare list', async () => {
		expect(names(await list('reranker'))).toEqual(CATALOGUE_MODELS);
		expect(names(await list('chat', 'strict'))).toEqual(CATALOGUE_MODELS);
	});
});
