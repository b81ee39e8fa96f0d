import { keys, useLocalService } from '../../support/service.cts';
import { chat, joinDeltas, streamChunks } from './client.cts';
import { schemaErrors } from './schema-check.cts';

const service = useLocalService();

function askJson(body: Record<string, unknown>) {
	return chat(service(), keys.default, { model: 'json-1', ...body });
}

const userSays = (content: string) => [{ role: 'user', content }];

const withSchema = (schema: object) => ({
	type: 'json_schema',
	json_schema: { name: 'extraction', strict: true, schema },
});

const address = {
	type: 'object',
	properties: { city: { type: 'string' }, zip: { type: 'integer' } },
	required: ['city', 'zip'],
	additionalProperties: false,
};

const person = {
	type: 'object',
	properties: {
		name: { type: 'string' },
		age: { type: 'integer', minimum: 18, maximum: 99 },
		score: { type: 'number', maximum: 0.5 },
		member: { type: 'boolean' },
		role: { type: 'string', enum: ['admin', 'user'] },
		kind: { const: 'person' },
		tags: { type: 'array', items: { type: 'string' } },
		address: { $ref: '#/$defs/address' },
		nickname: { anyOf: [{ type: 'null' }, { type: 'string' }] },
		note: { type: ['string', 'null'] },
	},
	required: [
		'name',
		'age',
		'score',
		'member',
		'role',
		'kind',
		'tags',
		'address',
		'nickname',
		'note',
	],
	additionalProperties: false,
	$defs: { address },
};

describe('json-1 with response_format json_schema', () => {
	it('answers a value built from the schema, strings taken from the user words in turn', async () => {
		const reply = await askJson({
			messages: userSays('Extract Ada Lovelace from London'),
			response_format: withSchema(person),
		});
		expect(reply.status).toBe(200);
		expect(reply.json.model).toBe('json-1-2026-11-01');
		expect(reply.json.choices[0].finish_reason).toBe('stop');
		const value = JSON.parse(reply.json.choices[0].message.content);
		expect(value).toEqual({
			name: 'Extract',
			age: 18,
			score: 0.5,
			member: true,
			role: 'admin',
			kind: 'person',
			tags: ['Ada'],
			address: { city: 'Lovelace', zip: 1 },
			nickname: null,
			note: 'from',
		});
		expect(schemaErrors(person, value)).toEqual([]);
	});

	it('writes JSON with a space after colons and commas, and counts its words as tokens', async () => {
		const reply = await askJson({
			messages: userSays('hello'),
			response_format: withSchema({
				type: 'object',
				properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'integer' } } },
			}),
		});
		expect(reply.json.choices[0].message.content).toBe('{"a": "hello", "b": [1]}');
		expect(reply.json.usage).toEqual({ prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 });
	});

	it.each([
		[
			'a recursive $ref',
			{
				type: 'object',
				properties: {
					label: { type: 'string' },
					children: { type: 'array', items: { $ref: '#' } },
				},
				required: ['label', 'children'],
			},
		],
		[
			'array bounds and an integer range without 1',
			{
				type: 'object',
				properties: {
					pair: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
					none: { type: 'array', maxItems: 0 },
					year: { type: 'integer', minimum: 1999.5, maximum: 2100 },
					below: { type: 'integer', maximum: -3.5 },
				},
				required: ['pair', 'none', 'year', 'below'],
			},
		],
		[
			'oneOf and a top-level $ref',
			{ $ref: '#/$defs/choice', $defs: { choice: { oneOf: [address] } } },
		],
		['a schema without type', { properties: { list: { items: { const: 7 } } } }],
	])('follows %s', async (_case, schema) => {
		const reply = await askJson({ messages: userSays('go'), response_format: withSchema(schema) });
		expect(schemaErrors(schema, JSON.parse(reply.json.choices[0].message.content))).toEqual([]);
	});

	it('answers "example" for strings when the user wrote no words, and any value without a schema', async () => {
		const strings = await askJson({
			messages: userSays('?!'),
			response_format: withSchema({ type: 'object', properties: { s: { type: 'string' } } }),
		});
		expect(strings.json.choices[0].message.content).toBe('{"s": "example"}');
		const free = await askJson({
			messages: userSays('anything'),
			response_format: { type: 'json_schema', json_schema: { name: 'free' } },
		});
		expect(free.json.choices[0].message.content).toBe('"anything"');
	});

	it('streams the same JSON text in several content deltas', async () => {
		const body = {
			messages: userSays('Extract Ada Lovelace from London'),
			response_format: withSchema(person),
		};
		const whole = await askJson(body);
		const { chunks, done } = streamChunks((await askJson({ ...body, stream: true })).text);
		expect(done).toBe(true);
		expect(joinDeltas(chunks)).toBe(whole.json.choices[0].message.content);
		expect(
			chunks.filter((chunk) => chunk.choices[0].delta.content !== undefined).length,
		).toBeGreaterThan(10);
		expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
	});

	it('cuts the JSON at max_tokens words with finish_reason length, as a real model does', async () => {
		const reply = await askJson({
			messages: userSays('Extract Ada'),
			response_format: withSchema(person),
			max_tokens: 3,
		});
		expect(reply.json.choices[0]).toMatchObject({
			message: { content: '{"name": "Extract", "age":' },
			finish_reason: 'length',
		});
	});
});

describe('json-1 with response_format json_object', () => {
	it('answers {"answer": <last user text>}', async () => {
		const reply = await askJson({
			messages: userSays('Reply in JSON: hello world'),
			response_format: { type: 'json_object' },
		});
		expect(reply.json.choices[0].message.content).toBe('{"answer": "Reply in JSON: hello world"}');
		expect(reply.json.usage).toEqual({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
	});

	it('follows an object schema written in a system or user message (LiteLLM passes it so)', async () => {
		const reply = await askJson({
			messages: [
				{
					role: 'system',
					content: `Answer with JSON that follows this schema: ${JSON.stringify(address)}. Nothing else.`,
				},
				{ role: 'user', content: 'Where does {Ada} live? Paris' },
			],
			response_format: { type: 'json_object' },
		});
		expect(JSON.parse(reply.json.choices[0].message.content)).toEqual({ city: 'Where', zip: 1 });
	});
});

describe('json-1 without response_format', () => {
	it('echoes like echo-1 when nothing asks for JSON', async () => {
		for (const responseFormat of [undefined, { type: 'text' }]) {
			const reply = await askJson({
				messages: userSays('Just say hi'),
				...(responseFormat === undefined ? {} : { response_format: responseFormat }),
			});
			expect(reply.json.choices[0].message.content).toBe('Just say hi');
		}
	});

	it('answers JSON when a message asks for JSON, following a schema given there', async () => {
		const asked = await askJson({ messages: userSays('Give me json please') });
		expect(asked.json.choices[0].message.content).toBe('{"answer": "Give me json please"}');
		const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
		const followed = await askJson({
			messages: [
				{ role: 'system', content: `Reply in JSON matching ${JSON.stringify(schema)}` },
				{ role: 'user', content: 'Is it fine?' },
			],
		});
		expect(followed.json.choices[0].message.content).toBe('{"ok": true}');
	});
});
