import { engineWith, NODE_TYPE } from '../support/chat-node.cts';
import { catalogueCredentials, DEFAULT_KEY_MODELS } from '../support/listed-models.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const names = (result: { results: Array<{ name: string }> }) =>
	result.results.map((entry) => entry.name);

describe('"From list" shows exactly the models of the key\'s group', () => {
	test('each key sees its own group, sorted, and search filters it', async () => {
		const search = (apiKey: string, filter?: string) =>
			engineWith(apiKey, service().baseUrl).listSearch({
				type: NODE_TYPE,
				method: 'searchModels',
				filter,
			});
		expect(names(await search(keys.default))).toEqual(DEFAULT_KEY_MODELS);
		// The premium key's group is the default's and echo-pro.
		expect(names(await search(keys.premium))).toEqual(['echo-pro', ...DEFAULT_KEY_MODELS].sort());
		expect(names(await search(keys.default, 'THINK'))).toEqual([
			'think-1',
			'think-inline-1',
			'think-tools-1',
		]);
		const requests = await service().requests();
		// Each search reads the catalogue: every modality of the list, and the endpoints that tell prices.
		expect(requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual(
			[
				...Array(3).fill('GET /v1/models?output_modalities=all'),
				...Array(3).fill('GET /api/pricing'),
				...Array(3).fill('GET /model/info'),
			].sort(),
		);
	});

	test('when the list cannot be loaded the user is told why and that an ID can still be typed', async () => {
		const attempt = engineWith('sk-example-wrong-key', service().baseUrl).listSearch({
			type: NODE_TYPE,
			method: 'searchModels',
		});
		await expect(attempt).rejects.toMatchObject({
			message: 'Could not load the models: The service rejected the API key',
			description: expect.stringMatching(/paste the key again.*switch the Model field to "ID"/),
		});
	});
});

describe('the credential test proves the key without spending tokens', () => {
	const test$ = (apiKey: string, baseUrl: string, shape?: string) =>
		engineWith(apiKey, baseUrl).credentialTest({
			type: NODE_TYPE,
			method: 'testChatCompletionsApi',
			credentialType: 'chatCompletionsApi',
			data: catalogueCredentials(baseUrl, shape, apiKey).chatCompletionsApi,
		});

	test('a good key reports how many models it may use; only GETs are sent (the models, the balance endpoints)', async () => {
		expect(await test$(keys.default, service().baseUrl)).toEqual({
			status: 'OK',
			message: 'Connection successful: this key may use 7 models.',
		});
		expect(await test$(` Bearer ${keys.premium} `, `${service().baseUrl}/`)).toEqual({
			status: 'OK',
			message: 'Connection successful: this key may use 8 models.',
		});
		const requests = await service().requests();
		expect(requests.every((request) => request.method === 'GET')).toBe(true);
		expect(
			requests
				.filter((request) => request.path.startsWith('/v1/models'))
				.map((request) => `${request.method} ${request.path} ${request.headers.authorization}`),
		).toEqual([
			`GET /v1/models?output_modalities=all Bearer ${keys.default}`,
			`GET /v1/models?output_modalities=all Bearer ${keys.premium}`,
		]);
	});

	test.each([
		// OpenRouter tags each model of every modality; new-api tags audio models as chat (`openai`); local/* is a route, of no kind.
		[
			'openrouter',
			'8 models (2 chat, 1 embeddings, 1 rerank, 1 image, 1 transcription, 1 speech, 1 of unknown kind)',
		],
		['new-api', '8 models (4 chat, 1 embeddings, 1 rerank, 1 image, 1 of unknown kind)'],
		[
			'litellm',
			'8 models (2 chat, 1 embeddings, 1 rerank, 1 image, 1 transcription, 1 speech, 1 of unknown kind)',
		],
		// A gateway that tells no kind: the number alone.
		[undefined, '8 models'],
	])('a key whose gateway tells kinds (%s) reports its models by kind', async (shape, count) => {
		expect(await test$(keys.catalogue, service().baseUrl, shape)).toEqual({
			status: 'OK',
			message: `Connection successful: this key may use ${count}.`,
		});
	});

	test.each([
		[
			'wrong key',
			'sk-example-wrong-key',
			'',
			/^The service rejected the API key\. The service answered "Incorrect API key/,
		],
		[
			'expired key',
			keys.expired,
			'',
			/^The service rejected the API key\. The service answered ".*expired.*"/,
		],
		[
			'Base URL without /v1',
			keys.default,
			'origin',
			/lacks the version segment \/v1.*add \/v1 to the Base URL/,
		],
		[
			'nothing listening',
			keys.default,
			'closed',
			/^The service at http:\/\/127\.0\.0\.1:\d+\/v1\/models\?output_modalities=all refused the connection/,
		],
		[
			'Base URL without scheme',
			keys.default,
			'localhost/v1',
			/^The Base URL "localhost\/v1" is not an http:\/\/ or https:\/\/ address/,
		],
	])('%s fails with the reason', async (_name, apiKey, base, expected) => {
		const places: Record<string, () => Promise<string>> = {
			'': async () => service().baseUrl,
			origin: async () => service().origin,
			closed: async () => `http://127.0.0.1:${await closedPort()}/v1`,
		};
		const baseUrl = places[base] ? await places[base]() : base;
		const result = await test$(apiKey, baseUrl);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
		expect(result.message).not.toContain(apiKey);
	});
});
