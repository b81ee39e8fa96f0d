import { keys, useLocalService } from '../../support/service.cts';
import { chat, expectInvalidRequest, hello } from './client.cts';

const service = useLocalService();

const weather = {
	type: 'function',
	function: {
		name: 'get_weather',
		description: 'Current weather of a city',
		parameters: {
			type: 'object',
			properties: { city: { type: 'string' } },
			required: ['city'],
		},
	},
};

const call = (id: string, args: unknown = '{"city":"Paris"}') => ({
	id,
	type: 'function',
	function: { name: 'get_weather', arguments: args },
});

async function expectBadRequest(body: Record<string, unknown>, param: string, message: RegExp) {
	expectInvalidRequest(
		await chat(service(), keys.default, { model: 'echo-1', ...body }),
		param,
		message,
	);
}

describe('tools', () => {
	const cases: Array<[string, unknown, string, RegExp]> = [
		['not an array', { type: 'function' }, 'tools', /must be an array/],
		['a tool not an object', [weather, 'get_time'], 'tools[1]', /must be an object/],
		[
			'type not function',
			[{ ...weather, type: 'retrieval' }],
			'tools[0].type',
			/'type' must be 'function'/,
		],
		['function missing', [{ type: 'function' }], 'tools[0].function', /must be an object/],
		[
			'name with a space',
			[weather, { type: 'function', function: { name: 'get time' } }],
			'tools[1].function.name',
			/1 to 64 letters, digits, underscores or dashes/,
		],
		[
			'name of 65 characters',
			[{ type: 'function', function: { name: 'a'.repeat(65) } }],
			'tools[0].function.name',
			/1 to 64/,
		],
		['name missing', [{ type: 'function', function: {} }], 'tools[0].function.name', /got null/],
		[
			'name used twice',
			[weather, weather],
			'tools[1].function.name',
			/'get_weather' is used twice/,
		],
		[
			'description not a string',
			[{ type: 'function', function: { name: 'f', description: 5 } }],
			'tools[0].function.description',
			/must be a string/,
		],
		[
			'parameters not an object',
			[{ type: 'function', function: { name: 'f', parameters: 'city' } }],
			'tools[0].function.parameters',
			/JSON-Schema object/,
		],
		[
			'parameters of another type',
			[{ type: 'function', function: { name: 'f', parameters: { type: 'array' } } }],
			'tools[0].function.parameters.type',
			/'type' must be 'object'/,
		],
		[
			'properties not an object',
			[{ type: 'function', function: { name: 'f', parameters: { properties: [] } } }],
			'tools[0].function.parameters.properties',
			/must be an object/,
		],
		[
			'required not a list of names',
			[{ type: 'function', function: { name: 'f', parameters: { required: 'city' } } }],
			'tools[0].function.parameters.required',
			/array of property names/,
		],
	];

	it.each(cases)('%s is a 400', async (_case, tools, param, message) => {
		await expectBadRequest({ messages: hello, tools }, param, message);
	});

	it('accepts valid tools for every model, also without description and parameters', async () => {
		const tools = [weather, { type: 'function', function: { name: 'now-2' } }];
		for (const model of ['echo-1', 'think-1', 'tools-1']) {
			const reply = await chat(service(), keys.default, { model, messages: hello, tools });
			expect(reply.status).toBe(200);
		}
	});
});

describe('tool_choice', () => {
	it.each(['auto', 'none', 'required', { type: 'function', function: { name: 'get_weather' } }])(
		'accepts %j',
		async (toolChoice) => {
			const reply = await chat(service(), keys.default, {
				model: 'echo-1',
				messages: hello,
				tools: [weather],
				tool_choice: toolChoice,
			});
			expect(reply.status).toBe(200);
		},
	);

	const cases: Array<[string, unknown, unknown[], string, RegExp]> = [
		['an unknown word', 'always', [weather], 'tool_choice', /must be 'auto', 'none', 'required'/],
		['required without tools', 'required', [], 'tool_choice', /needs at least one tool/],
		[
			'a function not in tools',
			{ type: 'function', function: { name: 'get_time' } },
			[weather],
			'tool_choice.function.name',
			/'get_time', which is not in 'tools'/,
		],
		[
			'a function without tools',
			{ type: 'function', function: { name: 'get_weather' } },
			[],
			'tool_choice.function.name',
			/not in 'tools'/,
		],
		[
			'an object of another type',
			{ type: 'tool', function: { name: 'get_weather' } },
			[weather],
			'tool_choice.type',
			/'type' must be 'function'/,
		],
		[
			'an object without a name',
			{ type: 'function', function: {} },
			[weather],
			'tool_choice.function.name',
			/must be a function name/,
		],
	];

	it.each(cases)('%s is a 400', async (_case, toolChoice, tools, param, message) => {
		await expectBadRequest({ messages: hello, tools, tool_choice: toolChoice }, param, message);
	});
});

describe('tool calls and tool messages in the conversation', () => {
	const ask = { role: 'user', content: 'Weather in Paris?' };
	const calling = (...calls: unknown[]) => ({
		role: 'assistant',
		content: null,
		tool_calls: calls,
	});
	const result = (id: string, content = 'Sunny') => ({ role: 'tool', tool_call_id: id, content });

	it('accepts parallel calls answered in any order, with system messages between', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: [
				ask,
				calling(call('call_a'), call('call_b')),
				result('call_b'),
				{ role: 'system', content: 'Answer briefly.' },
				result('call_a'),
				{ role: 'user', content: 'Thanks' },
			],
		});
		expect(reply.status).toBe(200);
		expect(reply.json.choices[0].message.content).toBe('Thanks');
	});

	const cases: Array<[string, unknown[], string, RegExp]> = [
		[
			'arguments as an object',
			[ask, calling(call('call_a', { city: 'Paris' })), result('call_a')],
			'messages[1].tool_calls[0].function.arguments',
			/arguments must be a JSON string/,
		],
		[
			'a call without id',
			[ask, calling({ type: 'function', function: { name: 'f', arguments: '{}' } })],
			'messages[1].tool_calls[0].id',
			/'id' must be a non-empty string/,
		],
		[
			'a call of another type',
			[ask, calling({ ...call('call_a'), type: 'tool' })],
			'messages[1].tool_calls[0].type',
			/'type' must be 'function'/,
		],
		[
			'a call without function name',
			[ask, calling({ id: 'call_a', type: 'function', function: { arguments: '{}' } })],
			'messages[1].tool_calls[0].function.name',
			/'function.name'/,
		],
		[
			'tool_calls not an array',
			[ask, { role: 'assistant', content: 'x', tool_calls: {} }],
			'messages[1].tool_calls',
			/must be an array/,
		],
		[
			'a tool message without tool_call_id',
			[ask, calling(call('call_a')), { role: 'tool', content: 'Sunny' }],
			'messages[2].tool_call_id',
			/needs 'tool_call_id'/,
		],
		[
			'a tool message answering an unknown id',
			[ask, calling(call('call_a')), result('call_a'), result('call_zzz')],
			'messages[3].tool_call_id',
			/'call_zzz' matches no tool call of an earlier assistant message/,
		],
		[
			'a tool message answering a call twice',
			[ask, calling(call('call_a')), result('call_a'), result('call_a')],
			'messages[3].tool_call_id',
			/'call_a' has already been answered/,
		],
		[
			'a tool message before any call',
			[result('call_a'), ask],
			'messages[0].tool_call_id',
			/matches no tool call/,
		],
		[
			'a user message before every call is answered',
			[ask, calling(call('call_a'), call('call_b')), result('call_a'), ask],
			'messages[1].tool_calls[1]',
			/'call_b' must each be answered by a tool message .* before messages\[3\]/,
		],
		[
			'an assistant message before the answers',
			[ask, calling(call('call_a')), { role: 'assistant', content: 'Done' }],
			'messages[1].tool_calls[0]',
			/'call_a' must each be answered .* before messages\[2\]/,
		],
		[
			'unanswered calls at the end',
			[ask, calling(call('call_a'), call('call_b'))],
			'messages[1].tool_calls[0]',
			/the tool calls 'call_a', 'call_b' must each be answered .* at the end of the messages/,
		],
		[
			'an id used twice',
			[ask, calling(call('call_a'), call('call_a'))],
			'messages[1].tool_calls[1].id',
			/'call_a' is used twice/,
		],
	];

	it.each(cases)('%s is a 400', async (_case, messages, param, message) => {
		await expectBadRequest({ messages }, param, message);
	});
});
