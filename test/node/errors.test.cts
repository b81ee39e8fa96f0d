import type { IDataObject } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { closedPort, keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

/** No retries and no waiting for rate limits here: these tests are about what each failure reads as (retries have their own tests). */
const NO_RETRIES = { options: { maxRetries: 0, maxRateLimitWait: 0 } };

/** Runs one item with "On Error: Continue" and returns the error item's json. */
async function errorItem(
	apiKey: string,
	model: string,
	baseUrl = service().baseUrl,
	extra = {},
): Promise<IDataObject> {
	const { outputs, error } = await engineWith(apiKey, baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello', model, { ...NO_RETRIES, ...extra }),
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(error).toBeUndefined();
	const json = outputs[0][0].json;
	// The key never appears in what the user sees.
	expect(JSON.stringify(outputs)).not.toContain(apiKey.trim());
	return json;
}

describe('every failure reads as what happened and how to fix it', () => {
	test.each([
		[
			'400 malformed request (value the service refuses)',
			keys.default,
			'echo-1',
			{ options: { maxRetries: 0, extraBody: '{"temperature": 5}' } },
			'The service rejected the request: ',
			{ http_code: 400, type: 'invalid_request_error' },
			/correct that field/,
		],
		[
			'401 wrong key',
			'sk-example-wrong-key',
			'echo-1',
			{},
			'The service rejected the API key (item 0)',
			{ http_code: 401, code: 'invalid_api_key' },
			/paste the key again/,
		],
		[
			'401 expired key',
			keys.expired,
			'echo-1',
			{},
			'The service rejected the API key (item 0)',
			{ http_code: 401, code: 'invalid_api_key' },
			/expired/,
		],
		[
			"403 model outside the key's group",
			keys.default,
			'echo-pro',
			{},
			'Model "echo-pro" is not available to this API key (item 0)',
			{ http_code: 403, code: 'model_not_found' },
			/token group/,
		],
		[
			'404 unknown model',
			keys.default,
			'echo-99',
			{},
			'Model "echo-99" does not exist on this service (item 0)',
			{ http_code: 404, code: 'model_not_found' },
			/Check the model ID for typos/,
		],
		[
			'500 server error',
			keys.faults,
			'fault-500',
			{},
			'The service failed while answering (500) (item 0)',
			{ http_code: 500, type: 'server_error', code: 'internal_error' },
			/run again later/,
		],
		[
			'503 + model_not_found with a Chinese message',
			keys.faults,
			'fault-503-model-not-found',
			{},
			'Model "fault-503-model-not-found" is not available to this API key (item 0)',
			{ http_code: 503, code: 'model_not_found' },
			/无可用渠道/,
		],
		[
			'402 out of balance (DeepSeek)',
			keys.faults,
			'fault-402',
			{},
			'The account behind this API key has run out of balance (item 0)',
			{ http_code: 402 },
			/Top up the balance/,
		],
		[
			'403 insufficient_user_quota (one-api)',
			keys.broke,
			'echo-1',
			{},
			'The account behind this API key has run out of balance (item 0)',
			{ http_code: 403, code: 'insufficient_user_quota' },
			/Top up the balance/,
		],
		[
			'429 insufficient_quota (OpenAI)',
			keys.faults,
			'fault-429-quota',
			{},
			'The account behind this API key has run out of balance (item 0)',
			{ http_code: 429, code: 'insufficient_quota' },
			/Retrying without that does not help/,
		],
		[
			'400 budget_exceeded (LiteLLM)',
			keys.faults,
			'fault-400-budget',
			{},
			'The account behind this API key has run out of balance (item 0)',
			{ http_code: 400, type: 'budget_exceeded' },
			/Budget has been exceeded/,
		],
		[
			'200 whose body is an error object',
			keys.faults,
			'fault-200-error',
			{},
			'The service reported an error inside a successful (200) response: upstream error: the model is overloaded (item 0)',
			{ http_code: 200, code: 'upstream_error' },
			/choose another model/,
		],
		[
			'502 HTML page from a proxy',
			keys.faults,
			'fault-html-502',
			{},
			'The service or a gateway in front of it is unavailable (502) (item 0)',
			{ http_code: 502, type: null, code: null },
			/an HTML page: "502 Bad Gateway"/,
		],
		[
			'404 "model ... not found" without a code (Ollama: not pulled)',
			keys.faults,
			'fault-404-not-pulled',
			{},
			'Model "fault-404-not-pulled" does not exist on this service (item 0)',
			{ http_code: 404, type: 'not_found_error', code: null },
			/try pulling it first/,
		],
		[
			'404 plain text',
			keys.faults,
			'fault-text-404',
			{},
			'The service has no such endpoint under',
			{ http_code: 404 },
			/"404 page not found"/,
		],
		[
			'error as a plain string',
			keys.faults,
			'fault-string-error',
			{},
			'The service rejected the API key (item 0)',
			{ http_code: 401, type: null, code: null },
			/"Unauthorized"/,
		],
		[
			'two JSON objects back to back',
			keys.faults,
			'fault-two-json',
			{},
			'The service failed while answering (500) (item 0)',
			{ http_code: 500, type: 'server_error' },
			/"first failure"/,
		],
		[
			'type and code "None"',
			keys.faults,
			'fault-none-codes',
			{},
			'The service failed while answering (500) (item 0)',
			{ http_code: 500, type: null, code: null },
			/"Upstream failed"/,
		],
		[
			'numeric code',
			keys.faults,
			'fault-numeric-code',
			{},
			'The service rejected the request: Invalid parameter (item 0)',
			{ http_code: 400, code: '400' },
			/Invalid parameter/,
		],
	])('%s', async (_name, apiKey, model, extra, message, details, fix) => {
		const json = await errorItem(apiKey, model, service().baseUrl, extra);
		expect(json.error).toEqual(expect.stringContaining(message));
		expect(json.error_details).toMatchObject(details);
		expect((json.error_details as IDataObject).description).toMatch(fix);
	});

	test('429 with an empty body and Retry-After; the key pauses, and an item that may not wait fails at once, unsent', async () => {
		// A key state of its own (another origin of the same service): the pause holds every request on the key.
		const baseUrl = service().baseUrl.replace('127.0.0.1', 'localhost');
		const json = await errorItem(keys.faults, 'fault-empty-429', baseUrl);
		expect(json.error).toBe(
			"Too many requests: the service's rate limit for this key was reached (item 0)",
		);
		expect(json.error_details).toMatchObject({ http_code: 429 });
		expect((json.error_details as IDataObject).description).toMatch(/an empty body.*wait 1.5 s/);
		await service().clearRequests();
		const next = await errorItem(keys.faults, 'fault-string-error', baseUrl);
		expect(next.error).toMatch(
			/^Not sent: the key is paused for [12] s more, since the service answered another request at \d\d:\d\d:\d\d UTC with 429 and an empty body \(item 0\)$/,
		);
		// Not answered: no HTTP code or words of its own.
		expect(next.error_details).toMatchObject({
			http_code: null,
			service_message: null,
			not_sent: expect.stringMatching(/^paused by the 429 another request got at /),
			description: expect.stringMatching(
				/^Options > Max Wait on Rate Limit \(Ms\) is 0, which does not allow waiting: raise it above [12]000 ms/,
			),
		});
		expect(await service().requests()).toHaveLength(0);
	});

	test("an item a model's pause holds, with Max Wait on Rate Limit 0: not sent, in the 429's words, and when it came", async () => {
		// A key state of its own (another origin of the same service), as above.
		const baseUrl = service().baseUrl.replace('127.0.0.1', 'localhost');
		const first = await errorItem(keys.fallback, 'fault-429-wait', baseUrl);
		expect(first.error_details).toMatchObject({ http_code: 429 });
		const before = new Date();
		await service().clearRequests();
		const next = await errorItem(keys.fallback, 'fault-429-wait', baseUrl);
		const at = (next.error as string).match(/at (\d\d:\d\d:\d\d) UTC/)?.[1] ?? '';
		expect(next.error).toBe(
			`Not sent: requests for model "fault-429-wait" on this key are paused for 30 s more, since the service answered another request at ${at} UTC with 429 "Rate limit reached for fault-429-wait in organization org-local on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 30s." (item 0)`,
		);
		// The time is the first answer's, a moment ago.
		expect(
			Math.abs(Date.parse(`${before.toISOString().slice(0, 11)}${at}Z`) - before.getTime()),
		).toBeLessThan(5_000);
		expect(next.error_details).toMatchObject({ http_code: null, code: null });
		expect(await service().requests()).toHaveLength(0);
	});

	test('404 because the Base URL lacks /v1', async () => {
		const json = await errorItem(keys.default, 'echo-1', service().origin);
		expect(json.error).toBe(
			`The Base URL "${service().origin}" lacks the version segment /v1, so the service answered 404 (item 0)`,
		);
		expect((json.error_details as IDataObject).description).toMatch(/add \/v1 to the Base URL/);
	});

	test('429 from the per-key rate limit, with the wait the service asks for', async () => {
		const { outputs } = await engineWith(keys.ratelimited, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ $json.n }}', 'echo-1', NO_RETRIES),
			items: jsonItems({ n: 'a' }, { n: 'b' }, { n: 'c' }),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0].map((item) => item.json.content ?? item.json.error)).toEqual([
			'a',
			'b',
			"Too many requests: the service's rate limit for this key was reached (item 2)",
		]);
		expect((outputs[0][2].json.error_details as IDataObject).description).toMatch(
			/The service asks to wait \d+ s/,
		);
	});

	test('connection refused names the address and the fix', async () => {
		const port = await closedPort();
		const json = await errorItem(keys.default, 'echo-1', `http://127.0.0.1:${port}/v1`);
		expect(json.error).toBe(
			`The service at http://127.0.0.1:${port}/v1/chat/completions refused the connection (item 0)`,
		);
		expect((json.error_details as IDataObject).description).toMatch(/Check the Base URL/);
	});

	test('without "On Error: Continue" the node fails with a NodeApiError carrying the HTTP code and the fix', async () => {
		const { error, status } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hello', 'echo-pro'),
			items: jsonItems({}),
		});
		expect(status).toBe('error');
		expect(error?.message).toBe('Model "echo-pro" is not available to this API key (item 0)');
		expect(error?.httpCode).toBe('403');
		expect(error?.description).toMatch(
			/^The service answered ".*echo-pro.*" \(HTTP 403, type invalid_request_error, code model_not_found\)\. Pick the model/,
		);
		expect(JSON.stringify(error)).not.toContain(keys.default);
	});

	test('with the error output, failed items go there with their message and the others go on', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ $json.q }}', '={{ $json.model }}'),
			items: jsonItems(
				{ q: 'first', model: 'echo-1' },
				{ q: 'second', model: 'echo-pro' },
				{ q: 'third', model: 'echo-1' },
			),
			settings: { onError: 'continueErrorOutput' },
		});
		expect(outputs[0].map((item) => item.json.content)).toEqual(['first', 'third']);
		expect(outputs[1]).toHaveLength(1);
		const [failed] = outputs[1];
		expect(failed.json.error).toBe('Model "echo-pro" is not available to this API key (item 1)');
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect(failed.error).toMatchObject({
			httpCode: '403',
			description: expect.stringMatching(/token group/),
		});
	});

	test('bad input fails only its own item, and nothing is sent for it', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ $json.q }}', 'echo-1', {
				options: { temperature: '={{ $json.t }}' },
			}),
			items: jsonItems({ q: 'a', t: 0.5 }, { q: 'b', t: 3 }, { q: '', t: 1 }, { q: 'd', t: 1 }),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(outputs[0].map((item) => item.json.content ?? item.json.error)).toEqual([
			'a',
			'Temperature: must be from 0 to 2, got 3 (item 1)',
			'User Prompt: is empty (item 2)',
			'd',
		]);
		expect(outputs[0][1].json.error_details).toEqual({
			http_code: null,
			type: null,
			code: null,
			description: 'Use a value from 0 to 2, e.g. 0.7.',
			service_message: null,
		});
		expect(
			(await service().requests()).map((request) => (request.body as IDataObject).messages),
		).toEqual([[{ role: 'user', content: 'a' }], [{ role: 'user', content: 'd' }]]);
	});
});
