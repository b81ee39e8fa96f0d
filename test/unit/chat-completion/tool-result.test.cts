import { runsAsTool, toolResult } from '../../../nodes/ChatCompletion/execute/tool-result';
import { replyItem } from '../../../nodes/ChatCompletion/execute/reply-item';
import type { Completion } from '../../../engine/protocol';

const body = {
	model: 'echo-1',
	messages: [{ role: 'user' as const, content: 'What is the capital of France? '.repeat(20) }],
};
const completion = (message: Record<string, unknown>, finish = 'stop'): Completion => ({
	id: 'chatcmpl-1',
	model: 'echo-1',
	choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
	usage: { prompt_tokens: 120, completion_tokens: 8, total_tokens: 128 },
});

describe('run as an AI Agent tool, the node returns what a model needs', () => {
	test('a text reply: only the text, however long the conversation was', () => {
		const result = toolResult(
			replyItem(body, completion({ content: 'Paris is the capital of France.' })),
		);
		expect(result).toEqual({ content: 'Paris is the capital of France.' });
		expect(JSON.stringify(result).length).toBeLessThan(60);
	});

	test('tool calls of the inner model, structured JSON, a refusal and a cut reply are kept', () => {
		const calls = completion(
			{
				content: null,
				tool_calls: [
					{
						id: 'c1',
						type: 'function',
						function: { name: 'weather', arguments: '{"city":"Paris"}' },
					},
				],
			},
			'tool_calls',
		);
		expect(toolResult(replyItem(body, calls))).toEqual({
			content: '',
			tool_calls: [{ name: 'weather', arguments: { city: 'Paris' } }],
		});
		expect(toolResult(replyItem(body, completion({ content: '{"a":1}' }), { a: 1 }))).toEqual({
			content: '{"a":1}',
			json: { a: 1 },
		});
		expect(toolResult(replyItem(body, completion({ content: null, refusal: 'No.' })))).toEqual({
			content: '',
			refusal: 'No.',
		});
		expect(toolResult(replyItem(body, completion({ content: 'Par' }, 'length')))).toEqual({
			content: 'Par',
			finish_reason: 'length',
		});
	});
});

describe('knowing it runs as a tool', () => {
	const context = (type: string, toolExecution = false) =>
		({ isToolExecution: () => toolExecution, getNode: () => ({ type }) }) as unknown as Parameters<
			typeof runsAsTool
		>[0];

	test('n8n runs a usableAsTool node under its tool type (the AI Agent v3 hands the call to the engine)', () => {
		expect(runsAsTool(context('n8n-nodes-chat-completions.chatCompletionTool'))).toBe(true);
	});

	test('or says so through isToolExecution', () => {
		expect(runsAsTool(context('n8n-nodes-chat-completions.chatCompletion', true))).toBe(true);
	});

	test('the node on the canvas is not a tool', () => {
		expect(runsAsTool(context('n8n-nodes-chat-completions.chatCompletion'))).toBe(false);
	});
});
