import { keys, useLocalService } from '../../support/service.cts';
import { chat, getModels, hello } from './client.cts';

const service = useLocalService();

describe('fault models', () => {
	const json = /^application\/json/;
	const cases: Array<[string, number, RegExp | null, string]> = [
		[
			'fault-500',
			500,
			json,
			'{"error":{"message":"Internal server error","type":"server_error","code":"internal_error"}}',
		],
		[
			'fault-503-model-not-found',
			503,
			json,
			'{"error":{"message":"当前分组 faults 下对于模型 fault-503-model-not-found 无可用渠道","type":"new_api_error","code":"model_not_found"}}',
		],
		[
			'fault-503-one-api-no-channel',
			503,
			json,
			'{"error":{"message":"当前分组 faults 下对于模型 fault-503-one-api-no-channel 无可用渠道","type":"one_api_error","code":null}}',
		],
		[
			'fault-503-new-api-no-channel',
			503,
			json,
			'{"error":{"message":"No available channel for model fault-503-new-api-no-channel under group faults","type":"new_api_error"}}',
		],
		[
			'fault-403-new-api-no-access',
			403,
			json,
			'{"error":{"message":"该令牌无权访问模型 fault-403-new-api-no-access","type":"new_api_error"}}',
		],
		[
			'fault-402',
			402,
			json,
			'{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}',
		],
		[
			'fault-429-quota',
			429,
			json,
			'{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
		],
		[
			'fault-429-new-api-quota',
			429,
			json,
			'{"error":{"message":"token quota is not enough, token remain quota: ＄0.000100, need quota: ＄0.003000 (request id: 20261126101500123456789)","type":"new_api_error","code":"pre_consume_token_quota_failed"}}',
		],
		[
			'fault-429-one-api-quota',
			429,
			json,
			'{"error":{"message":"用户额度不足，剩余额度为 ＄0.000000","type":"one_api_error","code":null}}',
		],
		[
			'fault-400-budget',
			400,
			json,
			'{"error":{"message":"Budget has been exceeded! Current cost: 10.5, Max budget: 10.0","type":"budget_exceeded","param":null,"code":"400"}}',
		],
		[
			'fault-200-error',
			200,
			json,
			'{"error":{"message":"upstream error: the model is overloaded","type":"upstream_error","code":"upstream_error"}}',
		],
		['fault-text-404', 404, /^text\/plain/, '404 page not found'],
		[
			'fault-404-not-pulled',
			404,
			json,
			'{"error":{"message":"model \\"fault-404-not-pulled\\" not found, try pulling it first","type":"not_found_error","param":null,"code":null}}',
		],
		['fault-empty-429', 429, null, ''],
		['fault-string-error', 401, json, '{"error":"Unauthorized"}'],
		[
			'fault-two-json',
			500,
			json,
			'{"error":{"message":"first failure","type":"server_error"}}{"error":{"message":"second failure","type":"server_error"}}',
		],
		[
			'fault-none-codes',
			500,
			json,
			'{"error":{"message":"Upstream failed","type":"None","code":"None"}}',
		],
		[
			'fault-numeric-code',
			400,
			json,
			'{"error":{"message":"Invalid parameter","type":"invalid_request_error","code":400}}',
		],
	];

	it.each(cases)('%s answers %i with its exact body', async (model, status, contentType, body) => {
		for (const stream of [false, true]) {
			const reply = await chat(service(), keys.faults, { model, messages: hello, stream });
			expect(reply.status).toBe(status);
			expect(reply.text).toBe(body);
			if (contentType === null) expect(reply.headers.get('content-type')).toBeNull();
			else expect(reply.headers.get('content-type')).toMatch(contentType);
		}
	});

	it('fault-empty-429 sends a fractional Retry-After', async () => {
		const reply = await chat(service(), keys.faults, { model: 'fault-empty-429', messages: hello });
		expect(reply.headers.get('retry-after')).toBe('1.5');
	});

	it('fault-html-502 sends an nginx HTML page', async () => {
		const reply = await chat(service(), keys.faults, { model: 'fault-html-502', messages: hello });
		expect(reply.status).toBe(502);
		expect(reply.headers.get('content-type')).toBe('text/html');
		expect(reply.text).toContain('<title>502 Bad Gateway</title>');
		expect(reply.text).toContain('nginx');
	});

	it('the faults key can still call echo-1', async () => {
		const reply = await chat(service(), keys.faults, { model: 'echo-1', messages: hello });
		expect(reply.status).toBe(200);
		expect(reply.json.choices[0].message.content).toBe('Hello there, world');
	});
});

describe('out-of-balance key', () => {
	it('answers every chat completion 403 insufficient_user_quota', async () => {
		for (const model of ['echo-1', 'think-1']) {
			const reply = await chat(service(), keys.broke, { model, messages: hello });
			expect(reply.status).toBe(403);
			expect(reply.text).toBe(
				'{"error":{"message":"用户额度不足, 剩余额度: $0.000000","type":"new_api_error","code":"insufficient_user_quota"}}',
			);
		}
	});

	it('still lists its models', async () => {
		expect((await getModels(service(), keys.broke)).status).toBe(200);
	});
});

describe('rate-limited key', () => {
	it('allows 2 requests per 60 s, then answers 429 with Retry-After', async () => {
		expect(
			(await chat(service(), keys.ratelimited, { model: 'echo-1', messages: hello })).status,
		).toBe(200);
		expect((await getModels(service(), keys.ratelimited)).status).toBe(200);

		// Rate limits come before body validation.
		const reply = await chat(service(), keys.ratelimited, { messages: 'not validated' });
		expect(reply.status).toBe(429);
		expect(reply.json).toEqual({
			error: {
				message: expect.stringMatching(
					/^Rate limit reached for requests per 60s on key sk-exa\.\.\.ited: Limit 2, Used 2, Requested 1\. Please try again in (59s|1m0s)\.$/,
				),
				type: 'requests',
				code: 'rate_limit_exceeded',
			},
		});
		expect(reply.text).not.toContain(keys.ratelimited);
		const retryAfter = reply.headers.get('retry-after') ?? '';
		expect(retryAfter).toMatch(/^\d+$/);
		expect(Number(retryAfter)).toBeGreaterThanOrEqual(59);
		expect(Number(retryAfter)).toBeLessThanOrEqual(60);

		// Rejected requests do not count; other keys are not limited.
		expect((await getModels(service(), keys.ratelimited)).status).toBe(429);
		expect((await getModels(service(), keys.default)).status).toBe(200);
	});
});
