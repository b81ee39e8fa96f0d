import { replyItem } from '../../../nodes/ChatCompletion/execute/reply-item';
import { toolCallItems } from '../../../nodes/ChatCompletion/execute/tool-call-items';
import type { Completion } from '../../../engine/protocol';

const body = { model: 'm', messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
const completion = (args: string): Completion => ({
	id: 'chatcmpl-1',
	model: 'm-1',
	choices: [
		{
			index: 0,
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: args } },
				],
			},
			finish_reason: 'tool_calls',
		},
	],
	usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
});

describe('replies with tool calls', () => {
	test('arguments are parsed; the message keeps the protocol form; each call becomes a Tool Calls item', () => {
		const reply = replyItem(body, completion('{"city":"Paris"}'));
		expect(reply.tool_calls).toEqual([
			{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' }, args: { city: 'Paris' } },
		]);
		expect(reply.message).toEqual({
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: 'call_1',
					type: 'function',
					function: { name: 'weather', arguments: '{"city":"Paris"}' },
				},
			],
		});
		expect(toolCallItems(reply)).toEqual([
			{
				id: 'call_1',
				name: 'weather',
				arguments: { city: 'Paris' },
				args: { city: 'Paris' },
				index: 0,
				count: 1,
				content: '',
				reply_id: 'chatcmpl-1',
				model: 'm-1',
				usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
				finish_reason: 'tool_calls',
				message: reply.message,
				messages: [...body.messages, reply.message],
			},
		]);
	});

	test('arguments that are not valid JSON give an error quoting them and the parse error, never a crash', () => {
		expect(() => replyItem(body, completion('{"city": Paris}'))).toThrow(
			/^The model called "weather" with arguments that are not a JSON object \(.*JSON.*\): \{"city": Paris\}$/,
		);
		expect(() => replyItem(body, completion('[1, 2]'))).toThrow('(not an object): [1, 2]');
	});
});

describe('reasoning travels with the assistant message', () => {
	const thinking = (message: Record<string, unknown>): Completion => ({
		id: 'chatcmpl-2',
		model: 'm-1',
		choices: [
			{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'tool_calls' },
		],
	});
	const call = {
		id: 'call_1',
		type: 'function' as const,
		function: { name: 'weather', arguments: '{}' },
	};

	test.each(['reasoning_content', 'reasoning'])(
		'%s: on the item, on message and messages under the same name, on every Tool Calls item',
		(field) => {
			const reply = replyItem(
				body,
				thinking({
					content: null,
					[field]: 'Ask the tool.',
					tool_calls: [call, { ...call, id: 'call_2' }],
				}),
			);
			expect(reply.reasoning).toBe('Ask the tool.');
			expect(reply.message).toEqual({
				role: 'assistant',
				content: null,
				[field]: 'Ask the tool.',
				tool_calls: [call, { ...call, id: 'call_2' }],
			});
			expect(reply.messages).toEqual([...body.messages, reply.message]);
			const items = toolCallItems(reply);
			expect(items.map((item) => item.reasoning)).toEqual(['Ask the tool.', 'Ask the tool.']);
			expect(items.every((item) => item.message === reply.message)).toBe(true);
		},
	);

	test('an inline <think> block is kept in the message as sent, and only there', () => {
		const reply = replyItem(
			body,
			thinking({ content: '<think>Hm.</think>\n\nParis', tool_calls: [call] }),
		);
		expect(reply.content).toBe('Paris');
		expect(reply.reasoning).toBe('Hm.');
		expect(reply.message).toEqual({
			role: 'assistant',
			content: '<think>Hm.</think>\n\nParis',
			tool_calls: [call],
		});
	});

	test('a message without reasoning gets no reasoning field, nor do its Tool Calls items', () => {
		const reply = replyItem(body, thinking({ content: null, tool_calls: [call] }));
		expect(Object.keys(reply.message as object)).toEqual(['role', 'content', 'tool_calls']);
		expect(reply).not.toHaveProperty('reasoning');
		expect(toolCallItems(reply)[0]).not.toHaveProperty('reasoning');
	});
});
