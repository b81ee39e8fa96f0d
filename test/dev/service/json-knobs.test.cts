import { keys, useLocalService } from '../../support/service.cts';
import { chat, joinDeltas, streamChunks } from './client.cts';
import { schemaErrors } from './schema-check.cts';

const service = useLocalService();

const city = {
	type: 'object',
	properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
	required: ['city', 'population'],
	additionalProperties: false,
};
const citySchema = {
	type: 'json_schema',
	json_schema: { name: 'city', strict: true, schema: city },
};
const question = [{ role: 'user', content: 'Largest city of France' }];

function askJson(body: Record<string, unknown>) {
	return chat(service(), keys.default, { model: 'json-1', messages: question, ...body });
}

function parses(content: string): boolean {
	try {
		JSON.parse(content);
		return true;
	} catch {
		return false;
	}
}

describe('x_local invalid_json', () => {
	it('syntax: the first N answers are cut JSON, the next one is valid', async () => {
		const body = {
			response_format: citySchema,
			x_local: { invalid_json: { id: 'syntax', count: 2, mode: 'syntax' } },
		};
		for (const attempt of [1, 2]) {
			const reply = await askJson(body);
			expect({ attempt, parses: parses(reply.json.choices[0].message.content) }).toEqual({
				attempt,
				parses: false,
			});
			expect(reply.json.choices[0].finish_reason).toBe('stop');
		}
		const third = await askJson(body);
		expect(JSON.parse(third.json.choices[0].message.content)).toEqual({
			city: 'Largest',
			population: 1,
		});
		expect((await service().requests()).length).toBe(3);
	});

	it('syntax: a streamed answer is cut the same way', async () => {
		const reply = await askJson({
			response_format: citySchema,
			stream: true,
			x_local: { invalid_json: { id: 'stream', count: 1, mode: 'syntax' } },
		});
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(true);
		expect(joinDeltas(chunks)).toBe('{"city": "Largest"');
	});

	it('schema: parsable, but the first required property is missing; then valid', async () => {
		const body = {
			response_format: citySchema,
			x_local: { invalid_json: { id: 'schema', count: 1, mode: 'schema' } },
		};
		const first = JSON.parse((await askJson(body)).json.choices[0].message.content);
		expect(first).toEqual({ population: 1 });
		expect(schemaErrors(city, first)).toEqual(["/ must have required property 'city'"]);
		const second = JSON.parse((await askJson(body)).json.choices[0].message.content);
		expect(schemaErrors(city, second)).toEqual([]);
	});

	it('schema: a value of another type when the schema requires nothing; {} for json_object', async () => {
		const loose = { type: 'object', properties: { city: { type: 'string' } } };
		const knobs = (id: string) => ({ invalid_json: { id, count: 1, mode: 'schema' } });
		const typed = await askJson({
			response_format: { type: 'json_schema', json_schema: { name: 'loose', schema: loose } },
			x_local: knobs('loose'),
		});
		const value = JSON.parse(typed.json.choices[0].message.content);
		expect(value).toBe('not what the schema asks for');
		expect(schemaErrors(loose, value)).toEqual(['/ must be object']);
		const object = await askJson({
			messages: [{ role: 'user', content: 'Answer in JSON' }],
			response_format: { type: 'json_object' },
			x_local: knobs('object'),
		});
		expect(object.json.choices[0].message.content).toBe('{}');
	});

	it('counts per id, apart from fail_first, and starts again after DELETE /__control/requests', async () => {
		const knobs = (id: string) => ({
			invalid_json: { id, count: 1, mode: 'syntax' },
			fail_first: { id, count: 1, status: 503 },
		});
		const content = async (id: string) => {
			const reply = await askJson({ response_format: citySchema, x_local: knobs(id) });
			return reply.status === 200 ? reply.json.choices[0].message.content : reply.status;
		};
		// A request that fail_first fails is no answer, so it does not spend an invalid one.
		expect(await content('a')).toBe(503);
		expect(parses(await content('a'))).toBe(false);
		expect(parses(await content('a'))).toBe(true);
		expect(await content('b')).toBe(503);
		await service().clearRequests();
		expect(await content('a')).toBe(503);
		expect(parses(await content('a'))).toBe(false);
	});
});

describe('x_local reject_response_format, as DeepSeek', () => {
	const deepSeek400 =
		'{"error":{"message":"This response_format type is unavailable now","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}';

	it('json_schema: refuses json_schema, accepts json_object and no response_format', async () => {
		const x_local = { reject_response_format: 'json_schema' };
		const refused = await askJson({ response_format: citySchema, x_local });
		expect(refused.status).toBe(400);
		expect(refused.text).toBe(deepSeek400);
		const jsonObject = await askJson({
			messages: [{ role: 'user', content: 'Largest city of France, in JSON' }],
			response_format: { type: 'json_object' },
			x_local,
		});
		expect(jsonObject.status).toBe(200);
		expect((await askJson({ x_local })).status).toBe(200);
	});

	it('json: refuses json_object too, but not text', async () => {
		const x_local = { reject_response_format: 'json' };
		for (const responseFormat of [citySchema, { type: 'json_object' }]) {
			const reply = await chat(service(), keys.default, {
				model: 'echo-1',
				messages: [{ role: 'user', content: 'json please' }],
				response_format: responseFormat,
				x_local,
			});
			expect(reply.text).toBe(deepSeek400);
		}
		expect((await askJson({ response_format: { type: 'text' }, x_local })).status).toBe(200);
	});

	it('a client that falls back to the schema as an instruction still gets JSON that follows it', async () => {
		const instruction = {
			role: 'system',
			content: `Answer only with JSON that follows this JSON schema: ${JSON.stringify(city)}`,
		};
		for (const [rejected, fallback] of [
			['json_schema', { response_format: { type: 'json_object' } }],
			['json', {}],
		] as const) {
			const x_local = { reject_response_format: rejected };
			expect((await askJson({ response_format: citySchema, x_local })).status).toBe(400);
			const reply = await askJson({ messages: [instruction, ...question], ...fallback, x_local });
			expect(reply.status).toBe(200);
			const value = JSON.parse(reply.json.choices[0].message.content);
			expect(value).toEqual({ city: 'Largest', population: 1 });
			expect(schemaErrors(city, value)).toEqual([]);
		}
		expect((await service().requests()).length).toBe(4);
	});
});
