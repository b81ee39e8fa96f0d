/** Response Format: JSON Object and JSON Schema, parsed, checked, repaired, and sent as an instruction where the service rejects it. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	simpleParameters,
} from '../support/chat-node.cts';
import { conformanceErrors } from '../support/conformance.cts';
import type { RecordedRequest } from '../support/service.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

afterEach(async () => {
	for (const { body } of await service().requests()) {
		const { x_local: _knobs, ...sent } = body as IDataObject;
		expect(conformanceErrors(sent)).toEqual([]);
	}
});

const PERSON = {
	type: 'object',
	properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
	required: ['name', 'age'],
	additionalProperties: false,
};

/**
 * Response Format JSON Schema (the fields below Tools, with `fields`), the local service's knobs (`x_local`)
 * in Options > Extra Body, and `options`.
 */
function schemaParameters(
	xLocal: IDataObject = {},
	options: INodeParameters = {},
	fields: INodeParameters = {},
): INodeParameters {
	return {
		responseFormat: 'jsonSchema',
		jsonSchema: JSON.stringify(PERSON),
		...fields,
		options: { maxRetries: 0, extraBody: JSON.stringify({ x_local: xLocal }), ...options },
	};
}

async function run(parameters: INodeParameters) {
	await service().clearRequests();
	const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters,
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(error).toBeUndefined();
	const requests = await service().requests();
	return {
		json: outputs[0][0].json,
		requests,
		bodies: requests.map((request: RecordedRequest) => request.body as IDataObject),
	};
}

type Usage = Record<'prompt_tokens' | 'completion_tokens' | 'total_tokens', number>;
const id = () => expect.getState().currentTestName as string;

describe('JSON Schema', () => {
	test('a valid reply is parsed into json; response_format json_schema is sent; one request', async () => {
		const { json, bodies } = await run(
			simpleParameters('Ada is 36 years old', 'json-1', schemaParameters()),
		);
		expect(json.error).toBeUndefined();
		expect(json.json).toEqual({ name: expect.any(String), age: expect.any(Number) });
		expect(JSON.parse(json.content as string)).toEqual(json.json);
		expect(bodies).toHaveLength(1);
		expect(bodies[0].response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'response', schema: PERSON, strict: false },
		});
	});

	test('streamed: the same parsed json', async () => {
		const { json, bodies } = await run(
			simpleParameters('Ada', 'json-1', schemaParameters({}, { stream: true })),
		);
		expect(json.json).toEqual({ name: expect.any(String), age: expect.any(Number) });
		expect(bodies[0].stream).toBe(true);
	});

	test.each(['syntax', 'schema'])(
		'an invalid answer (%s) gets one repair round; usage counts both requests',
		async (mode) => {
			const { json, bodies, requests } = await run(
				simpleParameters(
					'Ada',
					'json-1',
					schemaParameters({ invalid_json: { id: id(), count: 1, mode } }),
				),
			);
			expect(json.error).toBeUndefined();
			expect(json.json).toEqual({ name: expect.any(String), age: expect.any(Number) });
			expect(requests).toHaveLength(2);
			const repair = bodies[1].messages as IDataObject[];
			expect(repair.slice(0, -2)).toEqual(bodies[0].messages);
			expect(repair.at(-2)).toMatchObject({ role: 'assistant' });
			expect(repair.at(-1)?.content).toMatch(/^Your answer is not valid: /);
			// The first request's prompt is the one a valid run sends; the repair's prompt is longer.
			const single = (await run(simpleParameters('Ada', 'json-1', schemaParameters()))).json
				.usage as Usage;
			const usage = json.usage as Usage;
			expect(usage.prompt_tokens).toBeGreaterThan(2 * single.prompt_tokens);
			expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
		},
	);

	test('invalid twice with one repair attempt: an error that quotes the violation and keeps the raw answer', async () => {
		const { json, requests } = await run(
			simpleParameters(
				'Ada',
				'json-1',
				schemaParameters({ invalid_json: { id: id(), count: 2, mode: 'schema' } }),
			),
		);
		expect(requests).toHaveLength(2);
		expect(json.error).toBe(
			'The reply does not follow the JSON Schema, also after 1 repair attempt: $.name: is required but missing (item 0)',
		);
		const details = json.error_details as IDataObject;
		expect(details.raw_content).toEqual(expect.any(String));
		expect(details.violations).toEqual(expect.stringMatching(/^\$/));
		expect(details.description).toMatch(/Repair Attempts/);
	});

	test('Repair Attempts 0 fails on the first invalid answer', async () => {
		const { json, requests } = await run(
			simpleParameters(
				'Ada',
				'json-1',
				schemaParameters(
					{ invalid_json: { id: id(), count: 1, mode: 'syntax' } },
					{},
					{ repairAttempts: 0 },
				),
			),
		);
		expect(requests).toHaveLength(1);
		expect(json.error).toMatch(
			/^The reply does not follow the JSON Schema: the reply is not valid JSON/,
		);
	});

	test('a service that rejects json_schema is asked again with the schema as an instruction, still checked', async () => {
		const { json, bodies } = await run(
			simpleParameters(
				'Ada',
				'json-1',
				schemaParameters({ reject_response_format: 'json_schema' }),
			),
		);
		expect(json.error).toBeUndefined();
		expect(json.json).toEqual({ name: expect.any(String), age: expect.any(Number) });
		expect(bodies).toHaveLength(2);
		expect(bodies[1]).not.toHaveProperty('response_format');
		const system = (bodies[1].messages as IDataObject[])[0];
		expect(system.role).toBe('system');
		expect(system.content).toContain(JSON.stringify(PERSON));
	});

	test('a misspelled type deep in the schema is refused before anything is sent', async () => {
		const schema = {
			type: 'object',
			properties: { address: { type: 'object', properties: { city: { type: 'strin' } } } },
		};
		const { json, requests } = await run(
			simpleParameters(
				'Ada',
				'json-1',
				schemaParameters({}, {}, { jsonSchema: JSON.stringify(schema) }),
			),
		);
		expect(requests).toHaveLength(0);
		expect(json.error).toMatch(
			/^JSON Schema: is not a valid schema: properties\.address\.properties\.city\.type: .*"string"/,
		);
	});

	test('Messages and JSON prompt modes give the same parsed json', async () => {
		const messages = {
			model: modelFromList('json-1'),
			promptType: 'messages',
			messages: { values: [{ role: 'user', content: 'Ada' }] },
			...schemaParameters(),
		};
		const fromRows = await run(messages);
		expect(fromRows.json.json).toEqual({ name: expect.any(String), age: expect.any(Number) });
		const fromJson = await run({
			model: modelFromList('json-1'),
			promptType: 'json',
			messagesJson: '[{"role": "user", "content": "Ada"}]',
			...schemaParameters(),
		});
		expect(fromJson.json.json).toEqual(fromRows.json.json);
	});
});

describe('JSON Object', () => {
	test('a JSON object reply is parsed; a prompt without the word "json" is rejected by the service and sent again with the instruction', async () => {
		const { json, bodies } = await run(
			simpleParameters('Tell me about Ada', 'json-1', {
				responseFormat: 'jsonObject',
				options: { maxRetries: 0 },
			}),
		);
		expect(json.error).toBeUndefined();
		expect(json.json).toEqual(expect.any(Object));
		expect(bodies).toHaveLength(2);
		expect(bodies[0].response_format).toEqual({ type: 'json_object' });
		expect((bodies[1].messages as IDataObject[])[0].content).toMatch(/JSON object/);
	});

	test('with "json" in the prompt: one request', async () => {
		const { json, bodies } = await run(
			simpleParameters('Answer in JSON about Ada', 'json-1', {
				responseFormat: 'jsonObject',
				options: { maxRetries: 0 },
			}),
		);
		expect(json.json).toEqual(expect.any(Object));
		expect(bodies).toHaveLength(1);
	});
});

test("the example's schema without its comment (typed or kept on purpose) is taken", async () => {
	const schema = {
		type: 'object',
		properties: { name: { type: 'string' }, age: { type: 'integer' } },
		required: ['name', 'age'],
		additionalProperties: false,
	};
	const { json, requests } = await run(
		simpleParameters('Ada', 'json-1', {
			responseFormat: 'jsonSchema',
			jsonSchema: JSON.stringify(schema),
		}),
	);
	expect(json.error).toBeUndefined();
	expect(json.json).toEqual({ name: expect.any(String), age: expect.any(Number) });
	expect(requests).toHaveLength(1);
});

test('JSON Schema chosen and its example left as it is: refused before anything is sent, saying to replace it', async () => {
	const { json, requests } = await run(
		simpleParameters('Ada', 'json-1', { responseFormat: 'jsonSchema' }),
	);
	expect(json.error).toBe(
		'JSON Schema: is still the example it shows when chosen (name and age) (item 0)',
	);
	expect((json.error_details as IDataObject).description).toBe(
		'Replace it with the schema of the reply you want, e.g. the fields to extract and their types.',
	);
	expect(requests).toHaveLength(0);
});

describe('a workflow saved as node version 1.1', () => {
	test('JSON Schema missing: the fix names it where version 1.1 keeps it, in Options (Add Option)', async () => {
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			typeVersion: 1.1,
			parameters: simpleParameters('Ada', 'json-1', { options: { responseFormat: 'jsonSchema' } }),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		const { json } = outputs[0][0];
		expect(json.error).toBe(
			'JSON Schema: is not set, and Response Format "JSON Schema" needs it (item 0)',
		);
		expect((json.error_details as IDataObject).description).toMatch(
			/^Fill in Options > JSON Schema \(Add Option > JSON Schema\)\. /,
		);
	});

	test('keeps Response Format, JSON Schema and Repair Attempts in Options; they are sent and the reply checked', async () => {
		await service().clearRequests();
		const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			typeVersion: 1.1,
			parameters: simpleParameters('Ada', 'json-1', {
				options: {
					responseFormat: 'jsonSchema',
					jsonSchema: JSON.stringify(PERSON),
					repairAttempts: 0,
					extraBody: JSON.stringify({
						x_local: { invalid_json: { id: id(), count: 1, mode: 'schema' } },
					}),
				},
			}),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.error).toMatch(/^The reply does not follow the JSON Schema/);
		const bodies = (await service().requests()).map((request) => request.body as IDataObject);
		expect(bodies).toHaveLength(1);
		expect(bodies[0].response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'response', schema: PERSON, strict: false },
		});
	});
});

describe('Text (the default)', () => {
	test('sends no response_format and adds no json field', async () => {
		const { json, bodies } = await run(simpleParameters('Hello', 'json-1'));
		expect(bodies[0]).not.toHaveProperty('response_format');
		expect(json).not.toHaveProperty('json');
	});
});

describe('with tools', () => {
	test('a reply that calls tools goes to the Tool Calls output unparsed, not failed as invalid JSON', async () => {
		await service().clearRequests();
		const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Weather in Paris, answer in json', 'tools-1', {
				toolsMode: 'define',
				tools: {
					values: [
						{
							name: 'weather',
							description: 'Weather in a city',
							parameters:
								'{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}',
						},
					],
				},
				responseFormat: 'jsonObject',
				options: { maxRetries: 0 },
			}),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toEqual([]);
		expect(outputs[1].map((item) => item.json.name)).toEqual(['weather']);
		expect(outputs[1][0].json.args).toEqual({ city: 'Paris' });
		expect(await service().requests()).toHaveLength(1);
	});
});
