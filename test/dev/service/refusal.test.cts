import { keys, useLocalService } from '../../support/service.cts';
import { chat, expectInvalidRequest, hello, joinDeltas, streamChunks } from './client.cts';

const service = useLocalService();

const refusal = "I'm sorry, I can't help with that.";

function refused(knobs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	return chat(service(), keys.default, {
		model: 'echo-1',
		messages: hello,
		x_local: { refusal, ...knobs },
		...extra,
	});
}

describe('x_local refusal', () => {
	it('answers message.refusal with content null, finish_reason stop, and counts the refusal as output', async () => {
		const reply = await refused({});
		expect(reply.status).toBe(200);
		expect(reply.json.choices).toEqual([
			{
				index: 0,
				message: { role: 'assistant', content: null, refusal },
				finish_reason: 'stop',
			},
		]);
		expect(reply.json.usage).toEqual({ prompt_tokens: 3, completion_tokens: 7, total_tokens: 10 });
	});

	it('refusal_empty_content sends content "" instead of null', async () => {
		const reply = await refused({ refusal_empty_content: true });
		expect(reply.json.choices[0].message).toEqual({ role: 'assistant', content: '', refusal });
	});

	it('streams the refusal in delta.refusal pieces without content, then finish_reason stop and [DONE]', async () => {
		const reply = await refused(
			{ chunk_words: 2 },
			{ stream: true, stream_options: { include_usage: true } },
		);
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(true);
		expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant' });
		const pieces = chunks.slice(1, -2).map((chunk) => chunk.choices[0].delta);
		expect(pieces).toEqual([
			{ refusal: "I'm sorry," },
			{ refusal: " I can't" },
			{ refusal: ' help with' },
			{ refusal: ' that.' },
		]);
		expect(joinDeltas(chunks, 'refusal')).toBe(refusal);
		expect(chunks.some((chunk) => 'content' in (chunk.choices[0]?.delta ?? {}))).toBe(false);
		expect(chunks.at(-2)?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
		expect(chunks.at(-1)?.usage?.completion_tokens).toBe(7);
	});

	it('replaces tool calls and structured output too', async () => {
		const tools = await refused(
			{},
			{ model: 'tools-1', tools: [{ type: 'function', function: { name: 'ping' } }] },
		);
		expect(tools.json.choices[0]).toMatchObject({
			message: { content: null, refusal },
			finish_reason: 'stop',
		});
		expect(tools.json.choices[0].message.tool_calls).toBeUndefined();
		const json = await refused(
			{},
			{
				model: 'json-1',
				response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } },
			},
		);
		expect(json.json.choices[0].message).toEqual({ role: 'assistant', content: null, refusal });
	});

	it('refusal_empty_content needs refusal', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: hello,
			x_local: { refusal_empty_content: true },
		});
		expectInvalidRequest(
			reply,
			'x_local.refusal_empty_content',
			/'x_local.refusal_empty_content' needs 'x_local.refusal'/,
		);
	});
});
