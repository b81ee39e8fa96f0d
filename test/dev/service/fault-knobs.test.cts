import { keys, useLocalService } from '../../support/service.cts';
import { chat, expectInvalidRequest, hello, rawChat, streamChunks } from './client.cts';

const service = useLocalService();

function withKnobs(knobs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	return { model: 'echo-1', messages: hello, x_local: knobs, ...extra };
}

describe('x_local fail_first', () => {
	const failFirst = {
		id: 'retry-test',
		count: 2,
		status: 503,
		retry_after: '0.5',
		code: 'upstream_overloaded',
	};

	it('fails the first N requests with the id, then answers normally', async () => {
		const body = withKnobs({ fail_first: failFirst });
		for (const attempt of [1, 2]) {
			const reply = await chat(service(), keys.default, body);
			expect(reply.status).toBe(503);
			expect(reply.headers.get('retry-after')).toBe('0.5');
			expect(reply.json).toEqual({
				error: {
					message: `The service is temporarily unavailable (fail_first 'retry-test': failure ${attempt} of 2)`,
					type: 'server_error',
					code: 'upstream_overloaded',
				},
			});
		}
		const third = await chat(service(), keys.default, body);
		expect(third.status).toBe(200);
		expect(third.json.choices[0].message.content).toBe('Hello there, world');
	});

	it('counts per id, and starts again after DELETE /__control/requests', async () => {
		const body = (id: string) => withKnobs({ fail_first: { id, count: 1, status: 500 } });
		expect((await chat(service(), keys.default, body('a'))).status).toBe(500);
		expect((await chat(service(), keys.default, body('b'))).status).toBe(500);
		expect((await chat(service(), keys.default, body('a'))).status).toBe(200);
		await service().clearRequests();
		expect((await chat(service(), keys.default, body('a'))).status).toBe(500);
	});

	it.each([
		[429, 'rate_limit_error', 'rate_limit_exceeded'],
		[500, 'server_error', 'internal_error'],
		[502, 'server_error', 'bad_gateway'],
		[503, 'server_error', 'service_unavailable'],
		[504, 'server_error', 'gateway_timeout'],
	])(
		'status %i has type %s and code %s, and no Retry-After unless asked',
		async (status, type, code) => {
			const reply = await chat(
				service(),
				keys.default,
				withKnobs({ fail_first: { id: `status-${status}`, count: 1, status } }),
			);
			expect(reply.status).toBe(status);
			expect(reply.json.error).toMatchObject({ type, code });
			expect(reply.headers.get('retry-after')).toBeNull();
		},
	);

	it('strict_retry_after: a request before the Retry-After has passed fails again, uncounted; one after it counts', async () => {
		const body = withKnobs({
			fail_first: {
				id: 'strict',
				count: 1,
				status: 429,
				retry_after: '0.3',
				strict_retry_after: true,
			},
		});
		const first = await chat(service(), keys.default, body);
		expect([first.status, first.headers.get('retry-after')]).toEqual([429, '0.3']);
		const early = await chat(service(), keys.default, body);
		expect(early.status).toBe(429);
		expect(early.json.error.message).toBe(
			"Rate limit reached, please try again later (fail_first 'strict': came back before Retry-After had passed)",
		);
		expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(Number(early.headers.get('retry-after'))).toBeLessThanOrEqual(0.3);
		await new Promise((resolve) =>
			setTimeout(resolve, 1000 * Number(early.headers.get('retry-after'))),
		);
		expect((await chat(service(), keys.default, body)).status).toBe(200);
	});

	it('strict_retry_after needs retry_after in seconds', async () => {
		const reply = await chat(
			service(),
			keys.default,
			withKnobs({ fail_first: { id: 's', count: 1, status: 429, strict_retry_after: true } }),
		);
		expectInvalidRequest(reply, 'x_local.fail_first', /needs 'retry_after' in seconds above 0/);
	});

	it('fails streams before any event, too', async () => {
		const reply = await chat(
			service(),
			keys.default,
			withKnobs({ fail_first: { id: 'stream', count: 1, status: 502 } }, { stream: true }),
		);
		expect(reply.status).toBe(502);
		expect(reply.headers.get('content-type')).toBe('application/json');
	});
});

describe('x_local connection faults', () => {
	it('reset destroys the connection without an answer', async () => {
		await expect(rawChat(service(), keys.default, withKnobs({ reset: true }))).rejects.toThrow(
			/socket hang up|ECONNRESET/,
		);
		// The request still reaches the log.
		expect((await service().requests())[0].body).toMatchObject({ x_local: { reset: true } });
	});

	it('stall_headers_ms waits before the headers', async () => {
		const reply = await rawChat(service(), keys.default, withKnobs({ stall_headers_ms: 300 }));
		expect(reply.status).toBe(200);
		expect(reply.headersAfterMs).toBeGreaterThanOrEqual(295);
	});

	it('slow_ms waits before answering, failures included', async () => {
		const started = Date.now();
		const reply = await chat(
			service(),
			keys.default,
			withKnobs({ slow_ms: 250, fail_first: { id: 'slow', count: 1, status: 500 } }),
		);
		expect(reply.status).toBe(500);
		expect(Date.now() - started).toBeGreaterThanOrEqual(245);
	});

	it('stall_body_ms sends the headers of a JSON answer, then the body after the stall', async () => {
		const reply = await rawChat(service(), keys.default, withKnobs({ stall_body_ms: 300 }));
		expect(reply.headersAfterMs).toBeLessThan(200);
		expect(reply.endAfterMs).toBeGreaterThanOrEqual(295);
		expect(JSON.parse(reply.text).choices[0].message.content).toBe('Hello there, world');
	});
});

describe('x_local huge_mb', () => {
	it('answers a valid completion whose content is N MiB of text', async () => {
		const reply = await chat(service(), keys.default, withKnobs({ huge_mb: 2 }));
		expect(reply.status).toBe(200);
		const content: string = reply.json.choices[0].message.content;
		expect(Buffer.byteLength(content)).toBe(2 * 1024 * 1024);
		expect(content.startsWith('lorem ipsum dolor sit amet lorem')).toBe(true);
		expect(reply.json.choices[0].finish_reason).toBe('stop');
		expect(reply.json.usage.completion_tokens).toBeGreaterThan(300_000);
	});

	it('is for JSON answers only', async () => {
		const streamed = await chat(
			service(),
			keys.default,
			withKnobs({ huge_mb: 1 }, { stream: true }),
		);
		expect(streamed.status).toBe(400);
		expect(streamed.json.error.param).toBe('x_local.huge_mb');
		const ignored = await chat(
			service(),
			keys.default,
			withKnobs({ huge_mb: 0.001, ignore_stream: true }, { stream: true }),
		);
		expect(ignored.status).toBe(200);
		expect(ignored.json.choices[0].message.content).toHaveLength(1049);
	});
});

describe('x_local null_finish', () => {
	it('answers a complete message whose finish_reason is null', async () => {
		const reply = await chat(service(), keys.default, withKnobs({ null_finish: true }));
		expect(reply.status).toBe(200);
		expect(reply.json.choices).toEqual([
			{
				index: 0,
				message: { role: 'assistant', content: 'Hello there, world' },
				finish_reason: null,
			},
		]);
		expect(reply.json.usage.total_tokens).toBe(6);
	});

	it('is for JSON answers only: streams have no_finish_done and cut_after', async () => {
		const streamed = await chat(
			service(),
			keys.default,
			withKnobs({ null_finish: true }, { stream: true }),
		);
		expectInvalidRequest(streamed, 'x_local.null_finish', /no_finish_done.*cut_after/);
		const ignored = await chat(
			service(),
			keys.default,
			withKnobs({ null_finish: true, ignore_stream: true }, { stream: true }),
		);
		expect(ignored.json.choices[0].finish_reason).toBeNull();
	});
});

describe('x_local in general', () => {
	it('is taken out of the body, and recorded in the request log as received', async () => {
		const knobs = {
			chunk_words: 2,
			comments: true,
			fail_first: { id: 'log', count: 1, status: 429 },
		};
		await chat(service(), keys.default, withKnobs(knobs, { stream: true }));
		const reply = await chat(service(), keys.default, withKnobs(knobs, { stream: true }));
		expect(streamChunks(reply.text).done).toBe(true);
		const requests = await service().requests();
		expect(requests.map((request) => (request.body as { x_local: unknown }).x_local)).toEqual([
			knobs,
			knobs,
		]);
	});

	it('changes nothing when empty', async () => {
		const reply = await chat(service(), keys.default, withKnobs({}));
		expect(reply.json.choices[0].message.content).toBe('Hello there, world');
	});
});
