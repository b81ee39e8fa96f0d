/**
 * The key's balance, where the gateway tells it to the key itself: the Account node's Get Balance and the credential
 * test, against the local service answering in each gateway's shape (its `x-local-balance` header,
 * sent as the credential's Extra Headers, picks the shape): OpenRouter's `GET /key`, new-api's and one-api's
 * billing endpoints, LiteLLM's `GET /key/info` and new-api's `GET /api/usage/token` at the site root.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { AccountChatCompletions } from '../../nodes/AccountChatCompletions/AccountChatCompletions.node';
import { MediaChatCompletions } from '../../nodes/MediaChatCompletions/MediaChatCompletions.node';
import { closedPort, keys, startService, useLocalService } from '../support/service.cts';

const service = useLocalService();

const TYPE = 'n8n-nodes-chat-completions.accountChatCompletions';
const GET_BALANCE: INodeParameters = { operation: 'getBalance' };

/** The credential with the local service's balance shape as an Extra Header (none: a service that tells no balance). */
function credential(shape?: string, apiKey = keys.default) {
	return {
		apiKey,
		baseUrl: service().baseUrl,
		...(shape === undefined ? {} : { extraHeaders: JSON.stringify({ 'x-local-balance': shape }) }),
	};
}

function engine(shape?: string, apiKey?: string) {
	return createEngine({
		nodeTypes: { [TYPE]: new AccountChatCompletions() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
		credentials: { chatCompletionsApi: credential(shape, apiKey) },
	});
}

const USD_LIMITED = { remaining: 4.2, used: 5.8, limit: 10, currency: 'USD' };

const shapes: Array<[string, string, object, string[]]> = [
	['OpenRouter', 'openrouter', { ...USD_LIMITED, source: 'GET /key' }, ['/v1/key']],
	[
		'new-api and one-api (OpenAI billing, usage in cents)',
		'new-api',
		{
			...USD_LIMITED,
			source: 'GET /dashboard/billing/subscription + GET /dashboard/billing/usage',
		},
		['/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage'],
	],
	[
		'LiteLLM, at the site root',
		'litellm',
		{ ...USD_LIMITED, source: 'GET /key/info' },
		['/key/info'],
	],
	[
		"new-api's token usage, at the site root, in quota points",
		'new-api-token',
		{
			remaining: 2_100_000,
			used: 2_900_000,
			limit: 5_000_000,
			unit: 'quota',
			source: 'GET /api/usage/token',
		},
		['/api/usage/token'],
	],
];

describe('Get Balance', () => {
	test.each(shapes)(
		'%s: one item with what the key has left',
		async (_name, shape, expected, paths) => {
			const { outputs, error } = await engine(shape).runNode({
				type: TYPE,
				parameters: GET_BALANCE,
				items: [{ json: { a: 1 } }, { json: { a: 2 } }],
			});
			expect(error).toBeUndefined();
			expect(outputs[0]).toEqual([{ json: expected, pairedItem: { item: 0 } }]);
			const requests = await service().requests();
			const answered = requests.filter((request) => paths.includes(request.path));
			expect(answered.map((request) => request.headers.authorization)).toEqual(
				paths.map(() => `Bearer ${keys.default}`),
			);
			// Every endpoint is asked once, at the same time: one round trip, whatever the number of items; a GET
			// (Requests.get) carries no body.
			expect(requests.map((request) => [request.method, request.body])).toEqual(
				requests.map(() => ['GET', null]),
			);
			expect(requests).toHaveLength(5);
		},
	);

	test('a key without a limit: remaining and limit null, what was used kept', async () => {
		// new-api's billing gives such a key a limit of 100,000,000 USD.
		for (const shape of ['openrouter unlimited', 'new-api unlimited', 'litellm unlimited']) {
			const { outputs } = await engine(shape).runNode({
				type: TYPE,
				parameters: GET_BALANCE,
				items: [{ json: {} }],
			});
			expect(outputs[0][0].json).toMatchObject({ remaining: null, used: 5.8, limit: null });
		}
	});

	test("new-api's token usage without a limit: remaining and limit null, not 0", async () => {
		const { outputs } = await engine('new-api-token unlimited').runNode({
			type: TYPE,
			parameters: GET_BALANCE,
			items: [{ json: {} }],
		});
		expect(outputs[0][0].json).toEqual({
			remaining: null,
			used: 2_900_000,
			limit: null,
			unit: 'quota',
			source: 'GET /api/usage/token',
		});
	});

	test('an overdrawn key: remaining below 0', async () => {
		const { outputs } = await engine('new-api overdrawn').runNode({
			type: TYPE,
			parameters: GET_BALANCE,
			items: [{ json: {} }],
		});
		expect(outputs[0][0].json).toMatchObject({ remaining: -2.5, used: 12.5, limit: 10 });
	});

	test('Options > Timeout bounds each balance request', async () => {
		const slow = await startService({ args: ['--latency-ms', '1500'] });
		try {
			const { error } = await createEngine({
				nodeTypes: { [TYPE]: new AccountChatCompletions() },
				credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
				credentials: {
					chatCompletionsApi: {
						...credential('openrouter'),
						baseUrl: slow.baseUrl,
					},
				},
			}).runNode({
				type: TYPE,
				parameters: { ...GET_BALANCE, options: { timeout: 300, maxRetries: 0 } },
				items: [{ json: {} }],
			});
			// No endpoint answered in time: the timeout's words, as the other nodes give them.
			expect(error?.message).toMatch(
				/^The service at \S+\/v1\/key did not answer within the Timeout of 300 ms/,
			);
		} finally {
			await slow.stop();
		}
	});

	test.each([
		[
			'nothing listening',
			async () => `http://127.0.0.1:${await closedPort()}/v1`,
			/^The service at http:\/\/127\.0\.0\.1:\d+\/v1\/key refused the connection/,
		],
		[
			'a Base URL without /v1',
			async () => service().origin,
			/^The Base URL "http:\/\/127\.0\.0\.1:\d+" lacks the version segment \/v1/,
		],
	])('%s: the words the other nodes give, not a missing balance', async (_name, baseUrl, words) => {
		const { error } = await createEngine({
			nodeTypes: { [TYPE]: new AccountChatCompletions() },
			credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
			credentials: { chatCompletionsApi: { ...credential(), baseUrl: await baseUrl() } },
		}).runNode({
			type: TYPE,
			parameters: { ...GET_BALANCE, options: { maxRetries: 0 } },
			items: [{ json: {} }],
		});
		expect(error?.message).toMatch(words);
	});

	test('a service that tells no balance: an error that says what each endpoint answered, Continue keeps it as an item', async () => {
		const { error } = await engine().runNode({
			type: TYPE,
			parameters: GET_BALANCE,
			items: [{ json: {} }],
		});
		expect(error?.message).toBe('The service tells no balance for this key');
		expect(error?.description).toMatch(/^It answered: GET \/key \(OpenRouter\): HTTP 404; /);
		expect(error?.description).toMatch(/GET \/api\/usage\/token \(new-api\): HTTP 404\. /);
		expect(error?.description).toMatch(/see the balance in its console\.$/);
		const { outputs } = await engine().runNode({
			type: TYPE,
			parameters: GET_BALANCE,
			items: [{ json: {} }],
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0][0].json.error).toMatch(/^The service tells no balance for this key/);
	});

	test('a key the service refuses: the rejected key, not a missing balance, and never the key itself', async () => {
		const { error } = await engine('openrouter', 'sk-example-wrong-key-1234').runNode({
			type: TYPE,
			parameters: GET_BALANCE,
			items: [{ json: {} }],
		});
		expect(error?.message).toBe('The service rejected the API key');
		expect(JSON.stringify(error)).not.toContain('sk-example-wrong-key-1234');
	});
});

describe('the credential test', () => {
	const tested = async (shape?: string) =>
		await engine(shape).credentialTest({
			type: TYPE,
			method: 'testChatCompletionsApi',
			credentialType: 'chatCompletionsApi',
			data: credential(shape),
		});

	test.each([
		['openrouter', '$4.20 left'],
		['new-api', '$4.20 left'],
		['litellm unlimited', 'no limit ($5.80 used)'],
		['new-api unlimited', 'no limit ($5.80 used)'],
		['openrouter overdrawn', 'overdrawn by $2.50'],
		['new-api-token', '2,100,000 quota left'],
	])('%s: the balance after the count of models', async (shape, words) => {
		expect(await tested(shape)).toEqual({
			status: 'OK',
			message: `Connection successful: this key may use 7 models; balance ${words}.`,
		});
	});

	test.each([
		// 4 in flight at once: the models and then each balance endpoint, one at a time, are all admitted.
		['4 requests in flight', 'limited=1000/s,4', 'openrouter', '; balance $4.20 left'],
		// One request a minute: the models are admitted and every balance endpoint answers 429.
		['1 request a minute', 'limited=1/m', 'openrouter', ''],
	])(
		'a key capped at %s passes (a 429 from a balance endpoint is no balance, not a failed test)',
		async (_cap, limit, shape, words) => {
			const capped = await startService({ args: ['--rate-limit', limit, '--latency-ms', '40'] });
			try {
				const data = { ...credential(shape, keys.limited), baseUrl: capped.baseUrl };
				const result = await createEngine({
					nodeTypes: { [TYPE]: new AccountChatCompletions() },
					credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
					credentials: { chatCompletionsApi: data },
				}).credentialTest({
					type: TYPE,
					method: 'testChatCompletionsApi',
					credentialType: 'chatCompletionsApi',
					data,
				});
				expect(result).toEqual({
					status: 'OK',
					message: `Connection successful: this key may use 7 models${words}.`,
				});
				expect((await capped.traffic()).limited?.maxInFlight).toBe(1);
			} finally {
				await capped.stop();
			}
		},
	);

	test('a service that tells no balance passes all the same, and nothing is posted', async () => {
		expect(await tested()).toEqual({
			status: 'OK',
			message: 'Connection successful: this key may use 7 models.',
		});
		const requests = await service().requests();
		expect(requests.every((request) => request.method === 'GET')).toBe(true);
	});
});

describe('the Account node in the package', () => {
	const read = (path: string) => JSON.parse(readFileSync(join(__dirname, '../..', path), 'utf8'));

	test("n8n loads it (package.json's n8n.nodes) with its codex, whose documentation is the balance's", () => {
		expect(read('package.json').n8n.nodes).toContain(
			'dist/nodes/AccountChatCompletions/AccountChatCompletions.node.js',
		);
		const codex = read('nodes/AccountChatCompletions/AccountChatCompletions.node.json');
		expect(codex.node).toBe(TYPE);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/\/docs\/account\.md$/);
	});

	test('the balance is no longer a resource of the Media node', () => {
		const resource = new MediaChatCompletions().description.properties.find(
			(property) => property.name === 'resource',
		);
		expect(resource?.options?.map((option) => ('value' in option ? option.value : ''))).toEqual([
			'audio',
			'image',
			'video',
		]);
	});
});
