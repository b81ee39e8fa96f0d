import { replyItem } from '../../../nodes/ChatCompletion/execute/reply-item';
import type { ChatRequestBody } from '../../../engine/protocol';
import { parseCompletion } from '../../../engine/reply/completion';
import { assemble, chunk, HEADER, sse } from '../../support/sse.cts';

const { object: _chunkObject, ...TOP } = HEADER;
const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
const request: ChatRequestBody = { model: 'echo-1', messages: [{ role: 'user', content: 'Hi' }] };

/** What OpenAI sends for a short text reply: role first (with content ''), words, finish_reason, usage chunk. */
const textChunks = [
	chunk({ role: 'assistant', content: '' }),
	chunk({ content: 'Hello' }),
	chunk({ content: ', wörld 👋' }),
	chunk({}, { finish_reason: 'stop' }),
	{ ...HEADER, choices: [], usage },
];

const textCompletion = {
	...TOP,
	object: 'chat.completion',
	choices: [
		{ index: 0, message: { role: 'assistant', content: 'Hello, wörld 👋' }, finish_reason: 'stop' },
	],
	usage,
};

describe('assembling a streamed reply', () => {
	test('text deltas in order, top-level fields, finish_reason and the usage chunk; onText gets each delta', () => {
		const { completion, deltas } = assemble(sse(textChunks));
		expect(completion).toEqual(textCompletion);
		expect(deltas).toEqual(['Hello', ', wörld 👋']);
	});

	test('usage on the last chunk instead of a chunk of its own', () => {
		const chunks = [
			chunk({ role: 'assistant', content: 'Hi' }),
			chunk({}, { finish_reason: 'length', usage }),
		];
		expect(assemble(sse(chunks)).completion).toMatchObject({
			usage,
			choices: [{ finish_reason: 'length' }],
		});
	});

	test('role repeated in every delta, and a first chunk with only the role', () => {
		const chunks = [
			chunk({ role: 'assistant' }),
			chunk({ role: 'assistant', content: 'a' }),
			chunk({ role: 'assistant', content: 'b' }),
			chunk({ role: 'assistant' }, { finish_reason: 'stop' }),
		];
		expect(assemble(sse(chunks)).completion.choices[0].message).toEqual({
			role: 'assistant',
			content: 'ab',
		});
	});

	test('a reply without content deltas has content ""', () => {
		const chunks = [chunk({ role: 'assistant' }), chunk({}, { finish_reason: 'stop' })];
		expect(assemble(sse(chunks)).completion.choices[0].message).toEqual({
			role: 'assistant',
			content: '',
		});
	});

	test('several choices (n > 1) by index; onText follows the first', () => {
		const chunks = [
			chunk({ content: 'one' }),
			chunk({ content: 'two' }, { index: 1 }),
			chunk({ content: '!' }, { index: 1, finish_reason: 'stop' }),
			chunk({}, { finish_reason: 'stop' }),
		];
		const { completion, deltas } = assemble(sse(chunks));
		expect(completion.choices.map(({ index, message }) => [index, message?.content])).toEqual([
			[0, 'one'],
			[1, 'two!'],
		]);
		expect(deltas).toEqual(['one']);
	});
});

describe('tool-call deltas', () => {
	test('one call: id, type and name from its first delta, arguments concatenated; content null', () => {
		const chunks = [
			chunk({
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						index: 0,
						id: 'call_1',
						type: 'function',
						function: { name: 'get_weather', arguments: '' },
					},
				],
			}),
			chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
			chunk({
				tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: '"Lisbon"}' } }],
			}),
			chunk({}, { finish_reason: 'tool_calls' }),
		];
		expect(assemble(sse(chunks)).completion.choices[0]).toEqual({
			index: 0,
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_1',
						type: 'function',
						function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' },
					},
				],
			},
			finish_reason: 'tool_calls',
		});
	});

	test('parallel calls interleaved, in one delta or alternating, ordered by index', () => {
		const chunks = [
			chunk({
				tool_calls: [
					{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '' } },
					{
						index: 0,
						id: 'call_a',
						type: 'function',
						function: { name: 'weather', arguments: '{"ci' },
					},
				],
			}),
			chunk({ tool_calls: [{ index: 1, function: { arguments: '{"zone":' } }] }),
			chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
			chunk({ tool_calls: [{ index: 1, function: { arguments: '"UTC"}' } }] }),
			chunk({
				tool_calls: [
					{ index: 2, id: 'call_c', type: 'function', function: { name: 'noop', arguments: '{}' } },
				],
			}),
			chunk({}, { finish_reason: 'tool_calls' }),
		];
		expect(assemble(sse(chunks)).completion.choices[0].message?.tool_calls).toEqual([
			{
				id: 'call_a',
				type: 'function',
				function: { name: 'weather', arguments: '{"city":"Oslo"}' },
			},
			{ id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"zone":"UTC"}' } },
			{ id: 'call_c', type: 'function', function: { name: 'noop', arguments: '{}' } },
		]);
	});

	test('text before a tool call is kept as content', () => {
		const chunks = [
			chunk({ content: 'Let me check.' }),
			chunk({
				tool_calls: [
					{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
				],
			}),
			chunk({}, { finish_reason: 'tool_calls' }),
		];
		expect(assemble(sse(chunks)).completion.choices[0].message).toMatchObject({
			content: 'Let me check.',
		});
	});
});

describe('reasoning deltas', () => {
	test('reasoning_content (DeepSeek, one-api) and reasoning (OpenRouter, Ollama) are assembled under the name the service used', () => {
		for (const field of ['reasoning_content', 'reasoning']) {
			const chunks = [
				chunk({ role: 'assistant', [field]: 'Think' }),
				chunk({ [field]: 'ing.' }),
				chunk({ content: 'Answer' }, { finish_reason: 'stop' }),
			];
			expect(assemble(sse(chunks)).completion.choices[0].message).toEqual({
				role: 'assistant',
				content: 'Answer',
				[field]: 'Thinking.',
			});
		}
	});

	test('reasoning before tool calls stays on the message with them; the streamed text gets none of it', () => {
		const chunks = [
			chunk({ role: 'assistant', reasoning_content: 'Need the weather.' }),
			chunk({
				tool_calls: [
					{
						index: 0,
						id: 'call_1',
						type: 'function',
						function: { name: 'weather', arguments: '{}' },
					},
				],
			}),
			chunk({}, { finish_reason: 'tool_calls' }),
		];
		const { completion, deltas } = assemble(sse(chunks));
		expect(completion.choices[0].message).toEqual({
			role: 'assistant',
			content: null,
			reasoning_content: 'Need the weather.',
			tool_calls: [
				{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } },
			],
		});
		expect(deltas).toEqual([]);
	});

	test('a delta carrying both fields with the same text counts once', () => {
		const chunks = [
			chunk({ reasoning_content: 'Hm.', reasoning: 'Hm.' }),
			chunk({ content: 'A' }, { finish_reason: 'stop' }),
		];
		expect(assemble(sse(chunks)).completion.choices[0].message?.reasoning_content).toBe('Hm.');
	});
});

describe('SSE as servers send it', () => {
	const expected = assemble(sse(textChunks)).completion;
	const lines = (eol: string) => sse(textChunks, { eol });

	test.each([
		['CRLF line ends (Python SSE servers)', lines('\r\n')],
		['CR line ends', lines('\r')],
		[
			'comments (OpenRouter)',
			`: OPENROUTER PROCESSING\n\n${lines('\n')}`.replace(
				'data: [DONE]',
				': keep-alive\ndata: [DONE]',
			),
		],
		['data: without a space', lines('\n').replaceAll('data: ', 'data:')],
		[
			'event: message names, and other events ignored',
			`event: ping\ndata: {"type":"ping"}\n\n${lines('\n').replaceAll('data: {', 'event: message\ndata: {')}`,
		],
		[
			'id: and retry: fields',
			`retry: 3000\n\n${lines('\n').replaceAll('data: {', 'id: 7\ndata: {')}`,
		],
		['a byte order mark', `\uFEFF${lines('\n')}`],
		['no blank line after the last event', lines('\n').replace(/\n\n$/, '\n')],
		['no line end after [DONE]', lines('\n').replace(/\n+$/, '')],
	])('%s', (_name, body) => {
		expect(assemble(body).completion).toEqual(expected);
	});

	test('multi-line data: the lines of one event are joined with a line break', () => {
		const json = JSON.stringify(chunk({ content: 'multi' }, { finish_reason: 'stop' }), null, 1);
		const body = `data: ${json.split('\n').join('\ndata: ')}\n\ndata: [DONE]\n\n`;
		expect(assemble(body).completion.choices[0].message?.content).toBe('multi');
	});

	test('events split anywhere: one character at a time', () => {
		const body = lines('\r\n');
		expect(assemble([...body]).completion).toEqual(expected);
	});

	test('an event cut off by the end of a complete reply is dropped', () => {
		const body = sse(textChunks, { done: false }) + 'data: {"id":"chatcmpl-1","choi';
		expect(assemble(body).completion).toEqual(expected);
	});
});

describe('the streamed Completion equals the non-streamed one', () => {
	test('text, reasoning and usage', () => {
		const json = {
			...textCompletion,
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: 'Hello, wörld 👋', reasoning_content: 'Greet.' },
					finish_reason: 'stop',
				},
			],
		};
		const streamed = assemble(
			sse([chunk({ role: 'assistant', reasoning_content: 'Greet.' }), ...textChunks]),
		).completion;
		const parsed = parseCompletion({ status: 200, headers: {}, text: JSON.stringify(json) });
		expect(streamed).toEqual(parsed);
		expect(replyItem(request, streamed)).toEqual(replyItem(request, parsed));
	});

	test('parallel tool calls', () => {
		const calls = [
			{
				id: 'call_a',
				type: 'function',
				function: { name: 'weather', arguments: '{"city":"Oslo"}' },
			},
			{ id: 'call_b', type: 'function', function: { name: 'time', arguments: '{}' } },
		];
		const json = {
			...TOP,
			object: 'chat.completion',
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: null, tool_calls: calls },
					finish_reason: 'tool_calls',
				},
			],
			usage,
		};
		const chunks = [
			chunk({
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						index: 0,
						id: 'call_a',
						type: 'function',
						function: { name: 'weather', arguments: '{"ci' },
					},
				],
			}),
			chunk({
				tool_calls: [
					{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{}' } },
				],
			}),
			chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
			chunk({}, { finish_reason: 'tool_calls' }),
			{ ...HEADER, choices: [], usage },
		];
		const streamed = assemble(sse(chunks)).completion;
		const parsed = parseCompletion({ status: 200, headers: {}, text: JSON.stringify(json) });
		expect(streamed).toEqual(parsed);
		expect(replyItem(request, streamed)).toEqual(replyItem(request, parsed));
	});
});
