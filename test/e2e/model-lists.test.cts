/**
 * Each node's Model list in a real n8n, through n8n's own resource-locator endpoint as the editor asks for it, on
 * OpenRouter's and new-api's shapes of the local service (its `x-local-models` header in the credential's Extra
 * Headers): the models the node can use, with their prices.
 */
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const shapes = ['openrouter', 'new-api'] as const;
const credentialOf = (shape: string) => ({ id: `models-${shape}`, name: `Models as ${shape}` });

const n8n = useRealN8n(() => ({
	credentials: shapes.map((shape) => ({
		...credentialOf(shape),
		type: 'chatCompletionsApi',
		data: {
			apiKey: keys.catalogue,
			baseUrl: service().baseUrl,
			extraHeaders: JSON.stringify({ 'x-local-models': shape }),
		},
	})),
	workflows: [],
}));

const node = (name: string) => ({ type: `n8n-nodes-chat-completions.${name}`, version: 1 });

async function entries(shape: string, name: string, parameters: Record<string, unknown> = {}) {
	const rest = await N8nRest.login(n8n().url, OWNER);
	const results = await rest.listEntries(
		node(name),
		'model',
		'searchModels',
		{
			chatCompletionsApi: {
				id: n8n().credentialId(credentialOf(shape).id),
				name: credentialOf(shape).name,
			},
		},
		parameters,
	);
	return Object.fromEntries(results.map((entry) => [entry.name, entry.description]));
}

const names = (list: Record<string, unknown>) => Object.keys(list);

test("OpenRouter's shape: each list its node's kind, priced", async () => {
	expect(await entries('openrouter', 'chatCompletion')).toEqual({
		'echo-1': '$0.15 in / $0.60 out per 1M tokens, 128k context',
		'local/*': 'Owned by route',
		'vision-1': '$0.15 in / $0.60 out per 1M tokens, 128k context',
	});
	expect(names(await entries('openrouter', 'lmChatCompletions'))).toEqual([
		'echo-1',
		'local/*',
		'vision-1',
	]);
	expect(names(await entries('openrouter', 'embeddingsChatCompletions'))).toEqual([
		'embed-1',
		'local/*',
	]);
	expect(names(await entries('openrouter', 'rerankerChatCompletions'))).toEqual([
		'local/*',
		'rerank-1',
	]);
	expect(
		names(
			await entries('openrouter', 'mediaChatCompletions', {
				resource: 'audio',
				operation: 'transcribe',
			}),
		),
	).toEqual(['local/*', 'whisper-local']);
});

test("new-api's shape: endpoint types filter, prices with the default group's ratio", async () => {
	expect(await entries('new-api', 'embeddingsChatCompletions')).toEqual({
		'embed-1': '$0.04 in / $0.04 out per 1M tokens',
		'local/*': 'Owned by route',
	});
	expect(
		await entries('new-api', 'mediaChatCompletions', { resource: 'image', operation: 'generate' }),
	).toEqual({ 'image-1': '$0.08 per call', 'local/*': 'Owned by route' });
});
