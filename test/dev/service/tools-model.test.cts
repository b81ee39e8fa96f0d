import { keys, useLocalService } from '../../support/service.cts';
import { chat, joinDeltas, streamChunks, type Chunk } from './client.cts';

const service = useLocalService();

function tool(name: string, parameters?: Record<string, unknown>) {
	return {
		type: 'function',
		function: { name, ...(parameters === undefined ? {} : { parameters }) },
	};
}

const getWeather = tool('get_weather', {
	type: 'object',
	properties: {
		city: { type: 'string', description: 'City name' },
		unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
		days: { type: 'integer' },
	},
	required: ['city', 'unit'],
});
const getTime = tool('get_time', {
	type: 'object',
	properties: { location: { type: 'string' } },
});

function ask(text: string, extra: Record<string, unknown> = {}) {
	return chat(service(), keys.default, {
		model: 'tools-1',
		messages: [{ role: 'user', content: text }],
		tools: [getWeather, getTime],
		...extra,
	});
}

/** The calls of a reply as [name, parsed arguments]. */
function calls(reply: { json: any }): Array<[string, unknown]> {
	return reply.json.choices[0].message.tool_calls.map(
		(call: { function: { name: string; arguments: string } }) => [
			call.function.name,
			JSON.parse(call.function.arguments),
		],
	);
}

describe('tools-1 calling functions', () => {
	it('calls the function named in the text, with content null and finish_reason tool_calls', async () => {
		const reply = await ask('Please get_weather for Paris');
		expect(reply.status).toBe(200);
		expect(reply.json.model).toBe('tools-1-2026-11-01');
		expect(reply.json.choices).toEqual([
			{
				index: 0,
				message: {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: expect.stringMatching(/^call_[0-9a-f]{8}$/),
							type: 'function',
							function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
						},
					],
				},
				finish_reason: 'tool_calls',
			},
		]);
		expect(reply.json.usage).toEqual({
			prompt_tokens: 4,
			completion_tokens: 2,
			total_tokens: 6,
		});
	});

	it('makes one call per subject, in parallel, each with its own id', async () => {
		const reply = await ask('What is the weather in Paris and Tokyo?');
		expect(calls(reply)).toEqual([
			['get_weather', { city: 'Paris', unit: 'celsius' }],
			['get_weather', { city: 'Tokyo', unit: 'celsius' }],
		]);
		const ids = reply.json.choices[0].message.tool_calls.map((call: { id: string }) => call.id);
		expect(new Set(ids).size).toBe(2);
	});

	it('reads underscores as spaces, ignores case, and calls every named function in tools order', async () => {
		const reply = await ask('get time and Get Weather in Oslo. Thanks!');
		expect(calls(reply)).toEqual([
			['get_weather', { city: 'Oslo', unit: 'celsius' }],
			['get_time', { location: 'Oslo' }],
		]);
	});

	it('calls the first tool when no function is named, with the whole text when there is no subject', async () => {
		const reply = await ask('how warm is it?');
		expect(calls(reply)).toEqual([['get_weather', { city: 'how warm is it?', unit: 'celsius' }]]);
	});

	it('does not take sentence starts, the pronoun I or function names as subjects', async () => {
		const reply = await ask('Hello. I wonder: Weather in Rome? Get_time for\nLima too');
		expect(calls(reply)).toEqual([['get_time', { location: 'Rome' }]]);
	});

	it('fills arguments by schema type, and leaves out optional properties not named like a subject', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'tools-1',
			messages: [{ role: 'user', content: 'Book it in Berlin' }],
			tools: [
				tool('book', {
					type: 'object',
					properties: {
						name: { type: 'string' },
						count: { type: 'number' },
						nights: { type: 'integer' },
						breakfast: { type: 'boolean' },
						room: { type: 'string', enum: ['single', 'double'] },
						guests: { type: 'array', items: { type: 'string' } },
						extras: { type: 'object' },
						note: { type: ['null', 'string'] },
						comment: { type: 'string' },
						query: { type: 'string' },
					},
					required: ['count', 'nights', 'breakfast', 'room', 'guests', 'extras', 'note', 'code'],
				}),
			],
		});
		expect(reply.json.choices[0].message.tool_calls[0].function.arguments).toBe(
			'{"name":"Berlin","count":1,"nights":1,"breakfast":true,"room":"single","guests":[],"extras":{},' +
				'"note":"Berlin","query":"Berlin","code":"Berlin"}',
		);
	});

	it('sends {} for a function without parameters', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'tools-1',
			messages: [{ role: 'user', content: 'ping' }],
			tools: [tool('ping')],
		});
		expect(calls(reply)).toEqual([['ping', {}]]);
	});
});

describe('tools-1 and tool_choice', () => {
	it('forces the named function', async () => {
		const reply = await ask('What is the weather in Paris?', {
			tool_choice: { type: 'function', function: { name: 'get_time' } },
		});
		expect(calls(reply)).toEqual([['get_time', { location: 'Paris' }]]);
	});

	it.each(['auto', 'required'])('calls functions with %s', async (toolChoice) => {
		const reply = await ask('Weather in Paris', { tool_choice: toolChoice });
		expect(reply.json.choices[0].finish_reason).toBe('tool_calls');
	});

	it('echoes like echo-1 with none, without tools, or when the last message is not a user message', async () => {
		const none = await ask('Weather in Paris', { tool_choice: 'none' });
		expect(none.json.choices[0]).toEqual({
			index: 0,
			message: { role: 'assistant', content: 'Weather in Paris' },
			finish_reason: 'stop',
		});
		const noTools = await ask('Weather in Paris', { tools: [] });
		expect(noTools.json.choices[0].message.content).toBe('Weather in Paris');
		const afterAssistant = await chat(service(), keys.default, {
			model: 'tools-1',
			messages: [
				{ role: 'user', content: 'Weather in Paris' },
				{ role: 'assistant', content: 'Let me see.' },
			],
			tools: [getWeather],
			max_tokens: 1,
		});
		expect(afterAssistant.json.choices[0].message.content).toBe('Weather');
		expect(afterAssistant.json.choices[0].finish_reason).toBe('length');
	});
});

describe('tools-1 after tool results', () => {
	it('answers from the results in order, naming each call and its arguments', async () => {
		const first = await ask('What is the weather in Paris and Tokyo?');
		const message = first.json.choices[0].message;
		const [paris, tokyo] = message.tool_calls;
		const reply = await chat(service(), keys.default, {
			model: 'tools-1',
			messages: [
				{ role: 'user', content: 'What is the weather in Paris and Tokyo?' },
				message,
				{ role: 'tool', tool_call_id: tokyo.id, content: 'Rain, 12°C' },
				{ role: 'tool', tool_call_id: paris.id, content: [{ type: 'text', text: 'Sunny' }] },
			],
			tools: [getWeather, getTime],
		});
		expect(reply.json.choices[0]).toEqual({
			index: 0,
			message: {
				role: 'assistant',
				content:
					'Based on the tools: get_weather({"city":"Tokyo","unit":"celsius"}) = Rain, 12°C; ' +
					'get_weather({"city":"Paris","unit":"celsius"}) = Sunny',
			},
			finish_reason: 'stop',
		});
	});

	it('answers only the results after the last assistant message, also without tools', async () => {
		const call = (id: string, city: string) => ({
			id,
			type: 'function',
			function: { name: 'get_weather', arguments: JSON.stringify({ city }) },
		});
		const reply = await chat(service(), keys.default, {
			model: 'tools-1',
			messages: [
				{ role: 'user', content: 'Weather in Paris' },
				{ role: 'assistant', content: null, tool_calls: [call('call_1', 'Paris')] },
				{ role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
				{ role: 'assistant', content: 'It is sunny.' },
				{ role: 'user', content: 'And Oslo?' },
				{ role: 'assistant', content: null, tool_calls: [call('call_2', 'Oslo')] },
				{ role: 'tool', tool_call_id: 'call_2', content: 'Snow' },
			],
		});
		expect(reply.json.choices[0].message.content).toBe(
			'Based on the tools: get_weather({"city":"Oslo"}) = Snow',
		);
	});
});

describe('tools-1 streaming', () => {
	async function stream(text: string): Promise<Chunk[]> {
		const reply = await ask(text, { stream: true });
		expect(reply.status).toBe(200);
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(true);
		return chunks;
	}

	it('sends each call first with name and empty arguments, then 5-character pieces', async () => {
		const chunks = await stream('get_time in Lima');
		const deltas = chunks.map((chunk) => chunk.choices[0].delta);
		const id = deltas[1].tool_calls[0].id;
		expect(id).toMatch(/^call_[0-9a-f]{8}$/);
		expect(deltas).toEqual([
			{ role: 'assistant' },
			{
				tool_calls: [
					{ index: 0, id, type: 'function', function: { name: 'get_time', arguments: '' } },
				],
			},
			...['{"loc', 'ation', '":"Li', 'ma"}'].map((piece) => ({
				tool_calls: [{ index: 0, function: { arguments: piece } }],
			})),
			{},
		]);
		expect(chunks.at(-1)?.choices[0].finish_reason).toBe('tool_calls');
		expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0].finish_reason === null)).toBe(
			true,
		);
	});

	it('interleaves the argument pieces of parallel calls', async () => {
		const chunks = await stream('get_time in Rome and Lima');
		const calls = chunks.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? []);
		expect(calls.slice(0, 2).map((call) => [call.index, call.function.name])).toEqual([
			[0, 'get_time'],
			[1, 'get_time'],
		]);
		const pieces = calls.slice(2);
		expect(pieces.map((call) => call.index)).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
		for (const call of pieces) expect(Object.keys(call)).toEqual(['index', 'function']);
		const joined = (index: number) =>
			pieces
				.filter((call) => call.index === index)
				.map((call) => call.function.arguments)
				.join('');
		expect(joined(0)).toBe('{"location":"Rome"}');
		expect(joined(1)).toBe('{"location":"Lima"}');
	});

	it('streams the text answer after tool results like the other models', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'tools-1',
			stream: true,
			messages: [
				{ role: 'user', content: 'Time?' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: 'c1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
					],
				},
				{ role: 'tool', tool_call_id: 'c1', content: 'noon' },
			],
		});
		const { chunks } = streamChunks(reply.text);
		expect(joinDeltas(chunks)).toBe('Based on the tools: get_time({}) = noon');
		expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
	});
});
