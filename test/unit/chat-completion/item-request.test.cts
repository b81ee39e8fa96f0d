import { OPTIONS } from '../../../engine/options/table';
import { itemRequest } from '../../../nodes/ChatCompletion/request/item-request';
import type { ChatInput } from '../../../nodes/ChatCompletion/request/input';

const DEFAULT_TIMEOUT_MS = OPTIONS.find((option) => option.name === 'timeout')!.default;
import { conformanceErrors } from '../../support/conformance.cts';

const simple = (extra: Partial<ChatInput> = {}): ChatInput => ({
	model: 'echo-1',
	promptType: 'simple',
	systemMessage: '',
	prompt: 'Hello there',
	options: {},
	...extra,
});

describe('request bodies', () => {
	test('simple prompt: only model and messages are sent when no option is set', () => {
		const { body, timeout } = itemRequest(simple());
		expect(body).toEqual({ model: 'echo-1', messages: [{ role: 'user', content: 'Hello there' }] });
		expect(timeout).toBe(DEFAULT_TIMEOUT_MS);
	});

	test('simple prompt with a system message and every option', () => {
		const { body, timeout } = itemRequest(
			simple({
				systemMessage: 'Be brief.',
				options: {
					temperature: 0.2,
					topP: 0.9,
					maxTokens: 64,
					timeout: 1000,
					extraBody: '{"seed": 7}',
				},
			}),
		);
		expect(body).toEqual({
			seed: 7,
			model: 'echo-1',
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'Hello there' },
			],
			temperature: 0.2,
			top_p: 0.9,
			max_tokens: 64,
		});
		expect(timeout).toBe(1000);
	});

	test('message rows keep their order and roles', () => {
		const { body } = itemRequest({
			model: 'echo-1',
			promptType: 'messages',
			messages: {
				values: [
					{ role: 'system', content: 'Answer in French.' },
					{ role: 'user', content: 'Hi' },
					{ role: 'assistant', content: 'Salut' },
					{ role: 'user', content: 'How are you?' },
				],
			},
			options: {},
		});
		expect(body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
	});

	test('JSON messages pass through, tool call arguments given as objects become JSON text', () => {
		const messages = [
			{ role: 'user', content: 'Weather in Paris?' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_1',
						type: 'function',
						function: { name: 'weather', arguments: { city: 'Paris' } },
					},
				],
			},
			{ role: 'tool', tool_call_id: 'call_1', content: '{"celsius": 21}' },
		];
		const { body } = itemRequest({
			model: 'echo-1',
			promptType: 'json',
			messagesJson: messages,
			options: {},
		});
		expect(body.messages[1].tool_calls?.[0].function.arguments).toBe('{"city":"Paris"}');
		expect(body.messages[2]).toEqual(messages[2]);
	});

	test('JSON messages typed as text are parsed', () => {
		const { body } = itemRequest({
			model: 'echo-1',
			promptType: 'json',
			messagesJson: '[{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]',
			options: {},
		});
		expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
	});

	test('every body built above passes the official request schema', () => {
		const bodies = [
			itemRequest(simple()).body,
			itemRequest(
				simple({ systemMessage: 'S', options: { temperature: 2, topP: 0, maxTokens: 1 } }),
			).body,
			itemRequest({
				model: 'echo-1',
				promptType: 'json',
				messagesJson: [
					{ role: 'user', content: 'Weather?' },
					{
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: 'c1',
								type: 'function',
								function: { name: 'weather', arguments: { city: 'Oslo' } },
							},
						],
					},
					{ role: 'tool', tool_call_id: 'c1', content: 'cold' },
				],
				options: {},
			}).body,
		];
		for (const body of bodies) expect(conformanceErrors(body)).toEqual([]);
	});
});

describe('reasoning on assistant messages and Reasoning Effort', () => {
	const call = { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } };

	test('Messages JSON sends the reasoning fields of assistant messages as given', () => {
		const messages = [
			{ role: 'user', content: 'Weather?' },
			{ role: 'assistant', content: null, reasoning_content: 'Ask the tool.', tool_calls: [call] },
			{ role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
			{ role: 'assistant', content: 'Sunny.', reasoning: 'Done.' },
			{ role: 'user', content: 'Thanks' },
		];
		const { body } = itemRequest({
			model: 'm',
			promptType: 'json',
			messagesJson: messages,
			options: {},
		});
		expect(body.messages).toEqual(messages);
	});

	test("an assistant row's Reasoning goes in the field it names; empty Reasoning and other roles send none", () => {
		const { body } = itemRequest({
			model: 'm',
			promptType: 'messages',
			messages: {
				values: [
					{ role: 'user', content: 'Hi', reasoning: 'ignored on a user row' },
					{ role: 'assistant', content: 'Hello', reasoning: 'Greet back.' },
					{ role: 'assistant', content: 'Hello', reasoning: 'Greet.', reasoningField: 'reasoning' },
					{ role: 'assistant', content: 'Hello', reasoning: '', reasoningField: 'reasoning' },
				],
			},
			options: {},
		});
		expect(body.messages).toEqual([
			{ role: 'user', content: 'Hi' },
			{ role: 'assistant', content: 'Hello', reasoning_content: 'Greet back.' },
			{ role: 'assistant', content: 'Hello', reasoning: 'Greet.' },
			{ role: 'assistant', content: 'Hello' },
		]);
	});

	test('Reasoning Effort is sent as reasoning_effort only when set, for any model', () => {
		expect(itemRequest(simple({ model: 'any-model' })).body).not.toHaveProperty('reasoning_effort');
		for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']) {
			expect(
				itemRequest(simple({ model: 'any-model', options: { reasoningEffort: effort } })).body
					.reasoning_effort,
			).toBe(effort);
		}
	});

	test('Reasoning Effort values and reasoning fields fit the official request schema', () => {
		for (const effort of OPTIONS.find((option) => option.name === 'reasoningEffort')!.choices!.map(
			(choice) => choice.value,
		)) {
			expect(
				conformanceErrors(itemRequest(simple({ options: { reasoningEffort: effort } })).body),
			).toEqual([]);
		}
	});
});

describe('bad input is refused before anything is sent, naming the field and the fix', () => {
	const cases: Array<[string, ChatInput, string, RegExp]> = [
		['empty model', simple({ model: '' }), 'Model: is empty', /Choose a model from the list/],
		[
			'model with spaces',
			simple({ model: 'echo 1' }),
			'Model: "echo 1" contains spaces',
			/no spaces/,
		],
		['empty prompt', simple({ prompt: '   ' }), 'User Prompt: is empty', /Type a prompt/],
		[
			'object prompt',
			simple({ prompt: { a: 1 } }),
			'User Prompt: must be text, got an object',
			/JSON.stringify/,
		],
		[
			'temperature 3',
			simple({ options: { temperature: 3 } }),
			'Temperature: must be from 0 to 2, got 3',
			/from 0 to 2/,
		],
		[
			'temperature as word',
			simple({ options: { temperature: 'hot' } }),
			'Temperature: must be a number from 0 to 2, got the text "hot"',
			/0.7/,
		],
		[
			'top_p -1',
			simple({ options: { topP: -1 } }),
			'Top P: must be from 0 to 1, got -1',
			/from 0 to 1/,
		],
		[
			'max_tokens 0',
			simple({ options: { maxTokens: 0 } }),
			'Maximum Tokens: must be a whole number of at least 1, got 0',
			/1024/,
		],
		[
			'max_tokens 1.5',
			simple({ options: { maxTokens: 1.5 } }),
			'Maximum Tokens: must be a whole number of at least 1, got 1.5',
			/1024/,
		],
		[
			'extra body not JSON',
			simple({ options: { extraBody: '{seed: 7' } }),
			'Extra Body: is not valid JSON',
			/JSON object/,
		],
		[
			'extra body array',
			simple({ options: { extraBody: '[1]' } }),
			'Extra Body: must be a JSON object, got an array',
			/JSON object/,
		],
		[
			'extra body overriding messages',
			simple({ options: { extraBody: { messages: [], stream: true } } }),
			'Extra Body: sets "messages", which the node builds from its prompt or messages, and "stream", which Options > Stream sets',
			/Remove "messages", "stream" from Extra Body/,
		],
		[
			'extra body setting what an option sets',
			simple({ options: { temperature: 0.5, extraBody: { temperature: 0.9, seed: 1 } } }),
			'Extra Body: sets "temperature", which Options > Temperature sets',
			/Remove "temperature" from Extra Body/,
		],
		[
			'no message rows',
			{ model: 'm', promptType: 'messages', messages: { values: [] }, options: {} },
			'Messages: has no rows',
			/Add Message/,
		],
		[
			'empty message row',
			{
				model: 'm',
				promptType: 'messages',
				messages: { values: [{ role: 'user', content: '' }] },
				options: {},
			},
			'Messages row 1: has no content',
			/remove the row/,
		],
		[
			'JSON messages not an array',
			{ model: 'm', promptType: 'json', messagesJson: { role: 'user' }, options: {} },
			'Messages (JSON): must be an array of messages, got an object',
			/\$json.messages/,
		],
		[
			'JSON messages empty',
			{ model: 'm', promptType: 'json', messagesJson: [], options: {} },
			'Messages (JSON): is an empty array',
			/role/,
		],
		[
			'unknown role',
			{
				model: 'm',
				promptType: 'json',
				messagesJson: [{ role: 'robot', content: 'x' }],
				options: {},
			},
			'Messages (JSON): messages[0] has the unknown role "robot"',
			/system, developer, user, assistant or tool/,
		],
		[
			'missing content',
			{ model: 'm', promptType: 'json', messagesJson: [{ role: 'user' }], options: {} },
			'Messages (JSON): messages[0].content must be text or an array of content parts, got nothing',
			/tool_calls/,
		],
		[
			'unknown part type',
			{
				model: 'm',
				promptType: 'json',
				messagesJson: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }],
				options: {},
			},
			'Messages (JSON): messages[0].content[0] is a "video" part, which this node cannot send (only "text", "image_url" and "file" parts)',
			/image_url/,
		],
		[
			'Reasoning Effort unknown',
			simple({ options: { reasoningEffort: 'HIGH' } }),
			'Reasoning Effort: has the unknown value "HIGH"',
			/an expression gives the value: none, minimal, low, medium, high, xhigh, max/,
		],
		[
			'extra body setting what Reasoning Effort sets',
			simple({ options: { reasoningEffort: 'low', extraBody: { reasoning_effort: 'high' } } }),
			'Extra Body: sets "reasoning_effort", which Options > Reasoning Effort sets',
			/Remove "reasoning_effort" from Extra Body/,
		],
		[
			'row Reasoning not text',
			{
				model: 'm',
				promptType: 'messages',
				messages: { values: [{ role: 'assistant', content: 'A', reasoning: { a: 1 } }] },
				options: {},
			},
			'Messages row 1 > Reasoning: must be text, got an object',
			/reasoning/,
		],
		[
			'row Reasoning Field unknown',
			{
				model: 'm',
				promptType: 'messages',
				messages: {
					values: [
						{ role: 'assistant', content: 'A', reasoning: 'Why', reasoningField: 'thoughts' },
					],
				},
				options: {},
			},
			'Messages row 1 > Reasoning Field: has the unknown value "thoughts"',
			/reasoning_content or reasoning/,
		],
		[
			'JSON reasoning not text',
			{
				model: 'm',
				promptType: 'json',
				messagesJson: [{ role: 'assistant', content: 'A', reasoning_content: 7 }],
				options: {},
			},
			'Messages (JSON): messages[0].reasoning_content must be text, got 7',
			/"message" output/,
		],
		[
			'tool result without id',
			{
				model: 'm',
				promptType: 'json',
				messagesJson: [{ role: 'tool', content: '1' }],
				options: {},
			},
			'Messages (JSON): messages[0] is a tool result without tool_call_id',
			/tool_call_id/,
		],
	];

	test.each(cases)('%s', (_name, input, message, fix) => {
		let thrown: unknown;
		try {
			itemRequest(input);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(Error);
		expect((thrown as Error).message.startsWith(message)).toBe(true);
		expect((thrown as { fix: string }).fix).toMatch(fix);
	});
});
