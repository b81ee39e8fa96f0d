import { keys, useLocalService } from '../../support/service.cts';
import { chat, expectInvalidRequest, hello } from './client.cts';

const service = useLocalService();

const jsonWord =
	"'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.";

describe('response_format validation', () => {
	const schema = { name: 'person', schema: { type: 'object' } };
	const cases: Array<[string, unknown, string, RegExp]> = [
		['not an object', 'json', 'response_format', /^response_format: must be an object/],
		[
			'type missing',
			{},
			'response_format.type',
			/'type' must be 'text', 'json_object' or 'json_schema'/,
		],
		['type unknown', { type: 'xml' }, 'response_format.type', /got 'xml'/],
		[
			'json_schema without json_schema',
			{ type: 'json_schema' },
			'response_format.json_schema',
			/must be an object, got null/,
		],
		[
			'json_schema without name',
			{ type: 'json_schema', json_schema: { schema: {} } },
			'response_format.json_schema.name',
			/must be 1 to 64 letters, digits, underscores or dashes/,
		],
		[
			'json_schema name with a space',
			{ type: 'json_schema', json_schema: { ...schema, name: 'a person' } },
			'response_format.json_schema.name',
			/got 'a person'/,
		],
		[
			'schema not an object',
			{ type: 'json_schema', json_schema: { ...schema, schema: 'object' } },
			'response_format.json_schema.schema',
			/must be a JSON-Schema object/,
		],
		[
			'strict not a boolean',
			{ type: 'json_schema', json_schema: { ...schema, strict: 'yes' } },
			'response_format.json_schema.strict',
			/must be a boolean/,
		],
		[
			'description not a string',
			{ type: 'json_schema', json_schema: { ...schema, description: 5 } },
			'response_format.json_schema.description',
			/must be a string/,
		],
	];

	it.each(cases)('%s is a 400 naming the field', async (_case, responseFormat, param, message) => {
		const reply = await chat(service(), keys.default, {
			model: 'json-1',
			messages: hello,
			response_format: responseFormat,
		});
		expectInvalidRequest(reply, param, message, 'invalid_value');
	});

	it('accepts the official shapes, and null as absent', async () => {
		for (const responseFormat of [
			null,
			{ type: 'text' },
			{ type: 'json_schema', json_schema: { ...schema, strict: null, description: 'A person' } },
			{ type: 'json_schema', json_schema: { name: 'any-thing_1' } },
		]) {
			const reply = await chat(service(), keys.default, {
				model: 'json-1',
				messages: hello,
				response_format: responseFormat,
			});
			expect(reply.status).toBe(200);
		}
	});
});

describe("json_object needs the word 'json' in the messages, as with OpenAI and DeepSeek", () => {
	it.each(['json-1', 'echo-1'])('%s answers 400 when no message has it', async (model) => {
		const reply = await chat(service(), keys.default, {
			model,
			messages: [
				{ role: 'system', content: 'Answer as an object.' },
				{ role: 'user', content: 'Name a colour' },
			],
			response_format: { type: 'json_object' },
		});
		expect(reply.status).toBe(400);
		expect(reply.json).toEqual({
			error: { message: jsonWord, type: 'invalid_request_error', param: 'messages', code: null },
		});
	});

	it.each([
		['in a system message, in capitals', 'Answer in JSON.', 'Name a colour'],
		['inside another word', 'Answer as an object.', 'Use JSONL-like output'],
		['in a text part', 'Be brief.', [{ type: 'text', text: 'reply as json' }]],
	])('is found %s', async (_case, system, user) => {
		const reply = await chat(service(), keys.default, {
			model: 'json-1',
			messages: [
				{ role: 'system', content: system },
				{ role: 'user', content: user },
			],
			response_format: { type: 'json_object' },
		});
		expect(reply.status).toBe(200);
		expect(JSON.parse(reply.json.choices[0].message.content)).toEqual({
			answer: expect.any(String),
		});
	});
});
