import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

async function run(
	model: string,
	options: INodeParameters,
	apiKey = keys.default,
	baseUrl = service().baseUrl,
	signal?: AbortSignal,
) {
	const started = Date.now();
	const { outputs } = await engineWith(apiKey, baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello there', model, { options }),
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
		signal,
	});
	return {
		json: outputs[0]?.[0]?.json ?? {},
		elapsed: Date.now() - started,
		requests: await service().requests(),
	};
}

const failFirst = (count: number, status: number, extra: IDataObject = {}) =>
	knobs({ fail_first: { id: expect.getState().currentTestName, count, status, ...extra } }).options;

describe('retries inside the node', () => {
	test.each([429, 500, 502, 503, 504])('%i is retried until it succeeds', async (status) => {
		const { json, requests } = await run('echo-1', failFirst(2, status));
		expect(json.content).toBe('Hello there');
		expect(requests).toHaveLength(3);
	});

	test.each([
		['fractional seconds', '0.6', 600],
		['integer seconds', '1', 1000],
	])('Retry-After in %s is honoured', async (_name, value, ms) => {
		const { json, elapsed, requests } = await run(
			'echo-1',
			failFirst(1, 429, { retry_after: value }),
		);
		expect(json.content).toBe('Hello there');
		expect(requests).toHaveLength(2);
		expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(ms - 20);
		expect(elapsed).toBeLessThan(ms + 3000);
	});

	test('Retry-After as an HTTP date is honoured', async () => {
		const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
		const { json, requests } = await run(
			'echo-1',
			failFirst(1, 503, { retry_after: at.toUTCString() }),
		);
		expect(json.content).toBe('Hello there');
		expect(requests[1].receivedAt).toBeGreaterThanOrEqual(at.getTime() - 20);
	});

	const outOfBalance = 'The account behind this API key has run out of balance (item 0)';
	test.each([
		['400 budget_exceeded', keys.faults, 'fault-400-budget', 400, outOfBalance],
		['401', 'sk-example-wrong-key', 'echo-1', 401, 'The service rejected the API key (item 0)'],
		['402', keys.faults, 'fault-402', 402, outOfBalance],
		[
			'403',
			keys.default,
			'echo-pro',
			403,
			'Model "echo-pro" is not available to this API key (item 0)',
		],
		[
			'404 unknown model',
			keys.default,
			'echo-99',
			404,
			'Model "echo-99" does not exist on this service (item 0)',
		],
		['429 insufficient_quota', keys.faults, 'fault-429-quota', 429, outOfBalance],
		[
			'429 "token quota is not enough" (new-api)',
			keys.faults,
			'fault-429-new-api-quota',
			429,
			outOfBalance,
		],
		['429 "用户额度不足" (one-api)', keys.faults, 'fault-429-one-api-quota', 429, outOfBalance],
		['403 insufficient_user_quota', keys.broke, 'echo-1', 403, outOfBalance],
		[
			'503 model_not_found',
			keys.faults,
			'fault-503-model-not-found',
			503,
			'Model "fault-503-model-not-found" is not available to this API key (item 0)',
		],
	])(
		'%s is never retried: the user reads its own error, with no count of attempts',
		async (_name, apiKey, model, status, error) => {
			const { json, requests } = await run(model, { maxRetries: 5 }, apiKey);
			expect(json.error).toBe(error);
			expect((json.error_details as IDataObject).http_code).toBe(status);
			expect(requests).toHaveLength(1);
		},
	);

	test('404 because the Base URL lacks /v1 is never retried', async () => {
		const { json } = await run('echo-1', { maxRetries: 5 }, keys.default, service().origin);
		expect(json.error).toMatch(
			/lacks the version segment \/v1, so the service answered 404 \(item 0\)$/,
		);
	});

	test('when retries run out, the error says how many attempts were made and the last status', async () => {
		const { json, requests } = await run('echo-1', { ...failFirst(10, 502), maxRetries: 2 });
		expect(json.error).toBe(
			'The service or a gateway in front of it is unavailable (502), after 3 attempts (item 0)',
		);
		expect((json.error_details as IDataObject).http_code).toBe(502);
		expect(requests).toHaveLength(3);
	});

	test('a reset connection is retried', async () => {
		const { json, requests } = await run('echo-1', {
			...knobs({ reset: true }).options,
			maxRetries: 2,
		});
		// Three attempts, each on a connection of its own. The first may go on a connection kept open from an
		// earlier test: one that a kept connection lost before any answer is sent once more on a new
		// connection (as when the service closed it while idle), and that is not an attempt, but the message
		// counts it: every request the service got is accounted for.
		expect(requests.length).toBeGreaterThanOrEqual(3);
		expect(requests.length).toBeLessThanOrEqual(4);
		expect(new Set(requests.map((request) => request.connection)).size).toBe(requests.length);
		const counted =
			requests.length === 3
				? ''
				: ' (4 requests in all: one was sent again at once on a new connection, as a kept connection closed without answering)';
		expect(json.error).toMatch(
			new RegExp(
				`closed the connection before answering, after 3 attempts${counted.replace(/[()]/g, '\\$&')} \\(item 0\\)$`,
			),
		);
	});

	test('a refused connection is retried', async () => {
		const { json } = await run(
			'echo-1',
			{ maxRetries: 1 },
			keys.default,
			`http://127.0.0.1:${await closedPort()}/v1`,
		);
		expect(json.error).toMatch(/refused the connection, after 2 attempts \(item 0\)$/);
	});

	// The next two tests pause their key for 30 s (every request on it would wait): each takes a key of its own.
	test('a Retry-After longer than Max Retry Wait is not waited for', async () => {
		const { json, elapsed, requests } = await run(
			'echo-1',
			{ ...failFirst(1, 503, { retry_after: '30' }), maxRetryWait: 5000 },
			keys.premium,
		);
		expect(requests).toHaveLength(1);
		expect(elapsed).toBeLessThan(3000);
		expect(json.error).toMatch(/^The service or a gateway in front of it is unavailable \(503\)/);
	});

	test('a rate limit whose Retry-After is longer than Max Wait on Rate Limit is not waited for; it pauses the key, and the next item is not sent', async () => {
		const baseUrl = service().baseUrl.replace('127.0.0.1', 'localhost');
		const { json, elapsed, requests } = await run(
			'echo-1',
			{ ...failFirst(1, 429, { retry_after: '30' }), maxRateLimitWait: 5000 },
			keys.default,
			baseUrl,
		);
		expect(requests).toHaveLength(1);
		expect(elapsed).toBeLessThan(3000);
		expect(json.error).toBe(
			"Too many requests: the service's rate limit for this key was reached: the service asks to wait longer than Options > Max Wait on Rate Limit (Ms) allows (5000 ms) (item 0)",
		);
		expect((json.error_details as IDataObject).description).toMatch(
			/The service asks to wait 30 s/,
		);
		expect((json.error_details as IDataObject).description).toMatch(
			/raise Options > Max Wait on Rate Limit/,
		);
		// The service asked the key to wait 30 s: another item on it, for another model, that may wait 5 s fails
		// at once, without a request, saying it was not sent and what paused the key.
		await service().clearRequests();
		// Cancelled after 2 s: one that waited the pause out fails the assertions then, not at jest's time limit.
		const next = await run(
			'think-1',
			{ maxRateLimitWait: 5000 },
			keys.default,
			baseUrl,
			AbortSignal.timeout(2000),
		);
		expect(next.requests).toHaveLength(0);
		expect(next.elapsed).toBeLessThan(1000);
		expect(next.json.error).toMatch(
			/^Not sent: the key is paused for (29|30) s more, since the service answered another request at \d\d:\d\d:\d\d UTC with 429 "Rate limit reached, please try again later \(fail_first '[^']+': failure 1 of 1\)" \(item 0\)$/,
		);
		expect(next.json.error_details).toMatchObject({
			http_code: null,
			description: expect.stringMatching(
				/^Options > Max Wait on Rate Limit \(Ms\) \(5000 ms\) does not allow waiting that long: raise it above (29|30)000 ms/,
			),
		});
	});

	test('Max Retries 0 sends once', async () => {
		const { requests } = await run('echo-1', { ...failFirst(1, 500), maxRetries: 0 });
		expect(requests).toHaveLength(1);
	});
});
