import { keys, startService, useLocalService } from '../../support/service.cts';
import { chat, embed, expectInvalidRequest, hello } from './client.cts';

const service = useLocalService();

const texts = ['Paris is the capital of France', 'The cat sat on the mat', 'Capital of France?'];

const dot = (a: number[], b: number[]) =>
	a.reduce((sum, value, index) => sum + value * b[index], 0);

describe('POST /v1/embeddings', () => {
	it('answers one normalised vector per input, in order, with usage in words', async () => {
		const reply = await embed(service(), keys.rag, { model: 'embed-1', input: texts });
		expect(reply.status).toBe(200);
		expect(reply.json).toMatchObject({
			object: 'list',
			model: 'embed-1',
			usage: { prompt_tokens: 15, total_tokens: 15 },
		});
		const { data } = reply.json as { data: Array<{ index: number; embedding: number[] }> };
		expect(data.map((entry) => entry.index)).toEqual([0, 1, 2]);
		for (const { embedding } of data) {
			expect(embedding).toHaveLength(512);
			expect(dot(embedding, embedding)).toBeCloseTo(1, 10);
		}
		// The question is nearer to the text that shares its words.
		const [paris, cat, question] = data.map((entry) => entry.embedding);
		expect(dot(question, paris)).toBeGreaterThan(dot(question, cat));
		const again = await embed(service(), keys.rag, { model: 'embed-1', input: texts[0] });
		expect(again.json.data).toEqual([{ object: 'embedding', index: 0, embedding: paris }]);
	});

	it('gives fewer dimensions when asked, and refuses more than the model has', async () => {
		const reply = await embed(service(), keys.rag, {
			model: 'embed-1',
			input: 'a b',
			dimensions: 64,
		});
		expect(reply.json.data[0].embedding).toHaveLength(64);
		const tooMany = await embed(service(), keys.rag, {
			model: 'embed-1',
			input: 'a b',
			dimensions: 513,
		});
		expectInvalidRequest(tooMany, 'dimensions', /at most 512 for `embed-1`, got 513/);
	});

	it('sends base64 when asked: the same vector as 32-bit floats', async () => {
		const float = await embed(service(), keys.rag, { model: 'embed-1', input: texts[1] });
		const packed = await embed(service(), keys.rag, {
			model: 'embed-1',
			input: texts[1],
			encoding_format: 'base64',
		});
		const bytes = Buffer.from(packed.json.data[0].embedding as string, 'base64');
		const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
		expect(decoded).toEqual(Array.from(new Float32Array(float.json.data[0].embedding)));
	});

	it.each([
		['an empty string', ['a', ''], null, /^'\$\.input' is invalid/],
		['an empty array', [], null, /^'\$\.input' is invalid/],
		['token IDs', [[1, 2, 3]], 'input', /must be a string or an array of strings/],
		['2049 inputs', Array.from({ length: 2049 }, () => 'a'), 'input', /maximum 2048 inputs/],
	])('refuses %s as OpenAI does', async (_name, input, param, message) => {
		const reply = await embed(service(), keys.rag, { model: 'embed-1', input });
		expect(reply.status).toBe(400);
		expect(reply.json.error).toMatchObject({ type: 'invalid_request_error', param });
		expect(reply.json.error.message).toMatch(message);
	});

	it('refuses a chat model with OpenAI words, and chat with the embedding model', async () => {
		const chatModel = await embed(service(), keys.rag, { model: 'echo-1', input: 'a' });
		expect(chatModel.status).toBe(400);
		expect(chatModel.json.error.message).toBe(
			'You are not allowed to generate embeddings from this model',
		);
		const embedding = await chat(service(), keys.rag, { model: 'embed-1', messages: hello });
		expect(embedding.status).toBe(400);
		expect(embedding.json.error.code).toBe('model_not_supported');
	});

	it('is 403 for a group without the model; a fault model answers as it does to chat', async () => {
		const outside = await embed(service(), keys.default, { model: 'embed-1', input: 'a' });
		expect(outside.status).toBe(403);
		expect(outside.json.error.code).toBe('model_not_found');
		const noChannel = await embed(service(), keys.fallback, {
			model: 'fault-503-one-api-no-channel',
			input: 'a',
		});
		expect(noChannel.status).toBe(503);
		expect(noChannel.json.error.message).toMatch(/无可用渠道/);
	});

	it('is recorded in the request log', async () => {
		await embed(service(), keys.rag, { model: 'embed-1', input: ['x'] });
		const [request] = await service().requests();
		expect(request).toMatchObject({ method: 'POST', path: '/v1/embeddings' });
		expect(request.body).toEqual({ model: 'embed-1', input: ['x'] });
	});
});

describe('embeddings knobs', () => {
	const knobbed = (x_local: Record<string, unknown>) =>
		embed(service(), keys.rag, { model: 'embed-1', input: texts, x_local });

	it('shuffled: the entries in reverse order, each with its own index', async () => {
		const plain = await knobbed({});
		const reply = await knobbed({ shuffled: true });
		expect(reply.json.data).toEqual([...plain.json.data].reverse());
	});

	it('drop_last, no_index, not_numbers, base64', async () => {
		expect((await knobbed({ drop_last: true })).json.data).toHaveLength(2);
		for (const entry of (await knobbed({ no_index: true })).json.data) {
			expect(entry).not.toHaveProperty('index');
		}
		expect(typeof (await knobbed({ not_numbers: true })).json.data[0].embedding[0]).toBe('string');
		expect(typeof (await knobbed({ base64: true })).json.data[2].embedding).toBe('string');
	});

	it('not_finite: the last vector’s second number is 1e999 in JSON, Infinity’s bytes in base64', async () => {
		const json = await knobbed({ not_finite: true });
		expect(json.text).toMatch(/"index":2,"embedding":\[[^,\]]+,1e999,/);
		expect(json.json.data[2].embedding[1]).toBe(Infinity);
		expect(json.json.data[1].embedding.every(Number.isFinite)).toBe(true);
		const packed = await knobbed({ not_finite: true, base64: true });
		const bytes = Buffer.from(packed.json.data[2].embedding as string, 'base64');
		expect(bytes.readFloatLE(4)).toBe(Infinity);
	});

	it('ignore_dimensions: vectors of the model’s 512 numbers when 64 were asked', async () => {
		const reply = await embed(service(), keys.rag, {
			model: 'embed-1',
			input: texts,
			dimensions: 64,
			x_local: { ignore_dimensions: true },
		});
		for (const entry of reply.json.data) expect(entry.embedding).toHaveLength(512);
	});

	it('for_input: the knobs shape only the request whose input holds the text', async () => {
		const failFirst = { id: 'embed-for-input', count: 5, status: 500 };
		const other = await knobbed({ for_input: 'not sent', fail_first: failFirst, drop_last: true });
		expect(other.status).toBe(200);
		expect(other.json.data).toHaveLength(3);
		const chosen = await knobbed({ for_input: texts[1], fail_first: failFirst });
		expect(chosen.status).toBe(500);
	});

	it('fail_first fails the first request with the id, then answers', async () => {
		const failFirst = { id: 'embed-429', count: 1, status: 429, retry_after: '0.2' };
		const first = await knobbed({ fail_first: failFirst });
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('0.2');
		expect((await knobbed({ fail_first: failFirst })).status).toBe(200);
	});

	it('refuses an unknown knob', async () => {
		expectInvalidRequest(await knobbed({ shufled: true }), 'x_local', /unknown field shufled/);
	});
});

describe('--embedding-ms-per-input', () => {
	it('adds the model time per input', async () => {
		const slow = await startService({ args: ['--embedding-ms-per-input', '10'] });
		try {
			const started = Date.now();
			const reply = await embed(slow, keys.rag, {
				model: 'embed-1',
				input: Array.from({ length: 20 }, (_, index) => `text ${index}`),
			});
			expect(reply.status).toBe(200);
			expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		} finally {
			await slow.stop();
		}
	});
});
