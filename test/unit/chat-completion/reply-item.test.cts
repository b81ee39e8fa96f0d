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
				tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: args } }],
			},
			finish_reason: 'tool_calls',
		},
	],
	usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
});

describe('replies with tool calls', () => {
	test('arguments are parsed; the message keeps the protocol form; each call becomes a Tool Calls item', () => {
		const reply = replyItem(body, completion('{"city":"Paris"}'));
		expect(reply.tool_calls).toEqual([{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' }, args: { city: 'Paris' } }]);
		expect(reply.message).toEqual({
			role: 'assistant',
			content: null,
			tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
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
