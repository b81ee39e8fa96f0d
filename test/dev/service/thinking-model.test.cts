import { keys, useLocalService } from '../../support/service.cts';
import { chat, joinDeltas, streamChunks } from './client.cts';

const service = useLocalService();

const weather = {
	type: 'function',
	function: {
		name: 'weather',
		parameters: { type: 'object', properties: { city: { type: 'string' } } },
	},
};
const question = { role: 'user', content: 'Weather in Paris?' };
const call = {
	id: 'call_1',
	type: 'function',
	function: { name: 'weather', arguments: '{"city":"Paris"}' },
};
const result = { role: 'tool', tool_call_id: 'call_1', content: 'sunny' };

const ask = (messages: unknown[], extra: Record<string, unknown> = {}) =>
	chat(service(), keys.default, { model: 'think-tools-1', messages, tools: [weather], ...extra });

describe('think-tools-1: DeepSeek thinking mode with tools', () => {
	test('tool calls come with their reasoning_content', async () => {
		const reply = await ask([question]);
		expect(reply.status).toBe(200);
		expect(reply.json.choices[0].message).toMatchObject({
			content: null,
			reasoning_content: 'Reasoning about: Weather in Paris?',
			tool_calls: [{ function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
		});
		expect(reply.json.choices[0].finish_reason).toBe('tool_calls');
	});

	test("a tool-call message of this turn sent back without its reasoning: DeepSeek's 400, its index counted from 0", async () => {
		const reply = await ask([
			{ role: 'system', content: 'Be brief' },
			question,
			{ role: 'assistant', content: null, tool_calls: [call] },
			result,
		]);
		expect(reply.status).toBe(400);
		expect(reply.json).toEqual({
			error: {
				message:
					'Missing `reasoning_content` field in the assistant message at message index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls',
				type: 'invalid_request_error',
				param: null,
				code: 'invalid_request_error',
			},
		});
	});

	test('with its reasoning the loop goes on; tool calls of an earlier turn need none', async () => {
		const reply = await ask([
			question,
			{ role: 'assistant', content: null, tool_calls: [{ ...call, id: 'call_0' }] },
			{ ...result, tool_call_id: 'call_0' },
			{ role: 'assistant', content: 'Sunny.' },
			question,
			{ role: 'assistant', content: null, reasoning_content: 'Ask.', tool_calls: [call] },
			result,
		]);
		expect(reply.status).toBe(200);
		expect(reply.json.choices[0].message).toMatchObject({
			content: 'Based on the tools: weather({"city":"Paris"}) = sunny',
			reasoning_content: 'Reasoning about: the tool results',
		});
	});

	test('reasoning_field "reasoning": sent and required under that name, streamed too', async () => {
		const knob = { x_local: { reasoning_field: 'reasoning' } };
		const refused = await ask(
			[
				question,
				{ role: 'assistant', content: null, reasoning_content: 'Ask.', tool_calls: [call] },
				result,
			],
			knob,
		);
		expect(refused.json.error.message).toMatch(
			/^Missing `reasoning` field in the assistant message at message index 1\./,
		);
		const streamed = await ask([question], { stream: true, ...knob });
		const { chunks } = streamChunks(streamed.text);
		expect(joinDeltas(chunks, 'reasoning')).toBe('Reasoning about: Weather in Paris?');
		expect(chunks.some((chunk) => chunk.choices[0]?.delta.tool_calls !== undefined)).toBe(true);
	});

	test('a reasoning field that is not text is a 400; reasoning_effort must be a value the schema allows', async () => {
		const bad = await ask([
			question,
			{ role: 'assistant', content: 'x', reasoning_content: 7 },
			question,
		]);
		expect(bad.json.error).toMatchObject({
			param: 'messages[1].reasoning_content',
			code: 'invalid_type',
		});
		const effort = await ask([question], { reasoning_effort: 'extreme' });
		expect(effort.status).toBe(400);
		expect(effort.json.error).toMatchObject({ param: 'reasoning_effort', code: 'invalid_value' });
		expect((await ask([question], { reasoning_effort: 'xhigh' })).status).toBe(200);
	});
});
