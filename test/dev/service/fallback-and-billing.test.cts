/**
 * The local service's `fallback` key and the models that fail in each way Fallback Models tells apart,
 * and the knobs for what gateways say of a request: its id and its cost.
 */
import { keys, useLocalService } from '../../support/service.cts';
import { chat, getModels, hello, sseData } from './client.cts';

const service = useLocalService();

describe('the fallback key', () => {
	it('lists its group: models that answer and models that fail, not echo-pro', async () => {
		const ids = (
			(await getModels(service(), keys.fallback)).json.data as Array<{ id: string }>
		).map((model) => model.id);
		expect(ids).toEqual(
			expect.arrayContaining([
				'echo-1',
				'vision-1',
				'tools-1',
				'json-1',
				'fault-timeout',
				'fault-429-wait',
			]),
		);
		expect(ids).not.toContain('echo-pro');
	});

	it.each([
		[
			'fault-429-wait',
			429,
			'{"error":{"message":"Rate limit reached for fault-429-wait in organization org-local on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 30s.","type":"requests","code":"rate_limit_exceeded"}}',
		],
		[
			'fault-400-no-tools',
			400,
			'{"error":{"message":"fault-400-no-tools does not support Function Calling","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
		],
		[
			'fault-404-not-pulled',
			404,
			'{"error":{"message":"model \\"fault-404-not-pulled\\" not found, try pulling it first","type":"not_found_error","param":null,"code":null}}',
		],
		[
			'fault-500-request-id',
			500,
			'{"error":{"message":"upstream error: do request failed (request id: 20261124093015123456789)","type":"one_api_error","code":"do_request_failed"}}',
		],
	])('%s answers %i with its exact body', async (model, status, body) => {
		const reply = await chat(service(), keys.fallback, { model, messages: hello });
		expect(reply.status).toBe(status);
		expect(reply.text).toBe(body);
	});

	it('fault-429-wait asks to wait 30 s', async () => {
		const reply = await chat(service(), keys.fallback, {
			model: 'fault-429-wait',
			messages: hello,
		});
		expect(reply.headers.get('retry-after')).toBe('30');
	});

	it('fault-timeout sends nothing for a long time', async () => {
		const answered = chat(service(), keys.fallback, {
			model: 'fault-timeout',
			messages: hello,
		}).then(() => 'answered');
		const waited = new Promise((resolve) => setTimeout(() => resolve('nothing yet'), 1000));
		expect(await Promise.race([answered, waited])).toBe('nothing yet');
		answered.catch(() => undefined);
	});
});

describe('request id and cost knobs', () => {
	it.each(['x-oneapi-request-id', 'x-request-id', 'x-litellm-call-id'])(
		'request_id sets %s, on answers and failures',
		async (header) => {
			const x_local = { request_id: { header, value: 'abc-1' } };
			const ok = await chat(service(), keys.fallback, {
				model: 'echo-1',
				messages: hello,
				x_local,
			});
			expect(ok.headers.get(header)).toBe('abc-1');
			const failed = await chat(service(), keys.fallback, {
				model: 'no-such-model',
				messages: hello,
				x_local,
			});
			expect(failed.status).toBe(404);
			expect(failed.headers.get(header)).toBe('abc-1');
		},
	);

	it('completion_id is the completion id, streamed or not', async () => {
		const x_local = { completion_id: 'gen-1-abc' };
		const whole = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			x_local,
		});
		expect(whole.json.id).toBe('gen-1-abc');
		const streamed = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			stream: true,
			x_local,
		});
		expect(
			sseData(streamed.text)
				.filter((data) => data !== '[DONE]')
				.every((data) => JSON.parse(data).id === 'gen-1-abc'),
		).toBe(true);
	});

	it('usage_cost is usage.cost, streamed or not; cost_header is x-litellm-response-cost', async () => {
		const x_local = { usage_cost: 0.25, cost_header: 0.5 };
		const whole = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			x_local,
		});
		expect(whole.json.usage).toMatchObject({ total_tokens: 6, cost: 0.25 });
		expect(whole.headers.get('x-litellm-response-cost')).toBe('0.5');
		const streamed = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			stream: true,
			stream_options: { include_usage: true },
			x_local,
		});
		const last = JSON.parse(
			sseData(streamed.text)
				.filter((data) => data !== '[DONE]')
				.at(-1)!,
		);
		expect(last.usage).toMatchObject({ cost: 0.25 });
	});

	it('a request_id without header or value is a 400 naming the knob', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			x_local: { request_id: { value: 'x' } },
		});
		expect(reply.status).toBe(400);
		expect(reply.text).toMatch(/x_local\.request_id/);
	});
});
