import { keys, useLocalService } from '../../support/service.cts';
import { chat, joinDeltas, parseSse, rawChat, streamChunks } from './client.cts';

const service = useLocalService();

const question = 'one two three four five';

function stream(knobs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	return chat(service(), keys.default, {
		model: 'echo-1',
		messages: [{ role: 'user', content: question }],
		stream: true,
		x_local: knobs,
		...extra,
	});
}

const streamError = {
	error: { message: 'upstream stream failed', type: 'server_error', code: 'stream_error' },
};

describe('x_local stream content knobs', () => {
	it('chunk_words sets the words per content chunk', async () => {
		const { chunks } = streamChunks((await stream({ chunk_words: 2 })).text);
		expect(chunks.slice(1, -1).map((chunk) => chunk.choices[0].delta.content)).toEqual([
			'one two',
			' three four',
			' five',
		]);
	});

	it('text answers with exactly that text, repeated repeat times', async () => {
		const text = 'Grüße aus 東京 🌸 ';
		const reply = await stream({ text, repeat: 3 });
		expect(joinDeltas(streamChunks(reply.text).chunks)).toBe(text.repeat(3));
		const whole = await chat(service(), keys.default, {
			model: 'think-inline-1',
			messages: [{ role: 'user', content: 'ignored' }],
			max_tokens: 1,
			x_local: { text: 'exactly this' },
		});
		expect(whole.json.choices[0].message.content).toBe('exactly this');
		expect(whole.json.choices[0].finish_reason).toBe('stop');
		expect(whole.json.usage.completion_tokens).toBe(2);
	});

	it('role_every_delta puts the role in every delta', async () => {
		const { chunks } = streamChunks((await stream({ role_every_delta: true })).text);
		for (const chunk of chunks) expect(chunk.choices[0].delta.role).toBe('assistant');
		expect(joinDeltas(chunks)).toBe(question);
		expect(chunks.at(-1)?.choices[0]).toEqual({
			index: 0,
			delta: { role: 'assistant' },
			finish_reason: 'stop',
		});
	});

	it('reasoning_field names the reasoning field of think-1, streamed and not', async () => {
		const body = {
			model: 'think-1',
			messages: [{ role: 'user', content: 'why' }],
			x_local: { reasoning_field: 'reasoning' },
		};
		const streamed = await chat(service(), keys.default, { ...body, stream: true });
		const { chunks } = streamChunks(streamed.text);
		expect(joinDeltas(chunks, 'reasoning')).toBe('Reasoning about: why');
		expect(joinDeltas(chunks, 'reasoning_content')).toBe('');
		const whole = await chat(service(), keys.default, body);
		expect(whole.json.choices[0].message).toEqual({
			role: 'assistant',
			content: 'why',
			reasoning: 'Reasoning about: why',
		});
	});

	it('ignore_stream answers plain JSON to a stream request', async () => {
		const reply = await stream({ ignore_stream: true });
		expect(reply.headers.get('content-type')).toBe('application/json');
		expect(reply.json.object).toBe('chat.completion');
		expect(reply.json.choices[0].message.content).toBe(question);
	});
});

describe('x_local stream format knobs', () => {
	it('comments adds an OPENROUTER PROCESSING comment first and keep-alive comments between events', async () => {
		const reply = await stream({ comments: true });
		expect(reply.text.startsWith(': OPENROUTER PROCESSING\n\ndata: {')).toBe(true);
		const { events, comments } = parseSse(reply.text);
		expect(comments).toEqual(['OPENROUTER PROCESSING', ...events.slice(1).map(() => 'keep-alive')]);
		expect(reply.text).toMatch(/\n\n: keep-alive\n\ndata: /);
		expect(joinDeltas(streamChunks(reply.text).chunks)).toBe(question);
	});

	it.each([
		['crlf', '\r\n'],
		['cr', '\r'],
		['lf', '\n'],
	])('line_end %s ends every line with it', async (lineEnd, eol) => {
		const reply = await stream({ line_end: lineEnd, comments: true });
		expect(reply.text.endsWith(`data: [DONE]${eol}${eol}`)).toBe(true);
		expect(reply.text.replaceAll(eol, '')).not.toMatch(/[\r\n]/);
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(true);
		expect(joinDeltas(chunks)).toBe(question);
	});

	it('no_space writes data: without the space', async () => {
		const reply = await stream({ no_space: true });
		expect(reply.text.startsWith('data:{"id"')).toBe(true);
		expect(reply.text.endsWith('data:[DONE]\n\n')).toBe(true);
		expect(reply.text).not.toContain('data: ');
		expect(joinDeltas(streamChunks(reply.text).chunks)).toBe(question);
	});

	it('multiline splits each JSON event over two data: lines', async () => {
		const reply = await stream({ multiline: true });
		expect(reply.text.startsWith('data: {\ndata: "id":')).toBe(true);
		const { events } = parseSse(reply.text);
		for (const event of events.slice(0, -1)) expect(event.data.startsWith('{\n"id":')).toBe(true);
		expect(events.at(-1)?.data).toBe('[DONE]');
		expect(joinDeltas(streamChunks(reply.text).chunks)).toBe(question);
	});

	it('split_bytes writes the body in pieces of that many bytes, also inside UTF-8 characters', async () => {
		const text = 'héllo wörld 🌸';
		const reply = await rawChat(service(), keys.default, {
			model: 'echo-1',
			messages: [{ role: 'user', content: 'x' }],
			stream: true,
			x_local: { split_bytes: 7, text },
		});
		expect(reply.chunks.length).toBeGreaterThan(10);
		expect(reply.chunks.slice(0, -1).every((chunk) => chunk.length === 7)).toBe(true);
		expect(reply.chunks.at(-1)?.length).toBeLessThanOrEqual(7);
		const splitsACharacter = reply.chunks.some(
			(chunk) => Buffer.from(chunk.toString('utf8')).length !== chunk.length,
		);
		expect(splitsACharacter).toBe(true);
		expect(joinDeltas(streamChunks(reply.text).chunks)).toBe(text);
	});

	it('split_bytes also splits a JSON answer', async () => {
		const reply = await rawChat(service(), keys.default, {
			model: 'echo-1',
			messages: [{ role: 'user', content: 'Grüße 🌸' }],
			x_local: { split_bytes: 3 },
		});
		expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(reply.text)));
		expect(JSON.parse(reply.text).choices[0].message.content).toBe('Grüße 🌸');
	});
});

describe('x_local stream ending knobs', () => {
	it('error_after sends an error chunk after N content chunks and ends without [DONE]', async () => {
		const reply = await stream({ error_after: 2 });
		const { events } = parseSse(reply.text);
		expect(events).toHaveLength(4);
		expect(
			events.slice(1, 3).map((event) => JSON.parse(event.data).choices[0].delta.content),
		).toEqual(['one', ' two']);
		expect(events[3]).toEqual({ data: JSON.stringify(streamError) });
		expect(reply.text).not.toContain('finish_reason":"');
	});

	it('done_after_error adds [DONE] after the error chunk', async () => {
		const reply = await stream({ error_after: 0, done_after_error: true });
		expect(
			parseSse(reply.text)
				.events.map((event) => event.data)
				.slice(1),
		).toEqual([JSON.stringify(streamError), '[DONE]']);
	});

	it('event_error sends an event: error after the first chunk, then ends', async () => {
		const reply = await stream({ event_error: true });
		const { events } = parseSse(reply.text);
		expect(events).toHaveLength(2);
		expect(JSON.parse(events[0].data).choices[0].delta).toEqual({ role: 'assistant' });
		expect(events[1]).toEqual({ event: 'error', data: JSON.stringify(streamError) });
		expect(reply.text.endsWith(`event: error\ndata: ${JSON.stringify(streamError)}\n\n`)).toBe(
			true,
		);
	});

	it('cut_after ends after N content chunks without finish_reason or [DONE]', async () => {
		const reply = await stream({ cut_after: 3 });
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(false);
		expect(joinDeltas(chunks)).toBe('one two three');
		expect(chunks.every((chunk) => chunk.choices[0].finish_reason === null)).toBe(true);
	});

	it('cut_after beyond the last delta sends the whole text, still without finish_reason or [DONE]', async () => {
		const reply = await stream({ cut_after: 100 });
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(false);
		expect(joinDeltas(chunks)).toBe(question);
		expect(chunks.every((chunk) => chunk.choices[0].finish_reason === null)).toBe(true);
	});

	it('no_finish_done ends with [DONE] but never sends a finish_reason', async () => {
		const reply = await stream(
			{ no_finish_done: true },
			{ stream_options: { include_usage: true } },
		);
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(true);
		expect(joinDeltas(chunks)).toBe(question);
		expect(chunks.every((chunk) => (chunk.choices[0]?.finish_reason ?? null) === null)).toBe(true);
		expect(chunks.at(-1)?.usage).toEqual({
			prompt_tokens: 5,
			completion_tokens: 5,
			total_tokens: 10,
		});
	});

	it('counts tool-call deltas as content chunks', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'tools-1',
			messages: [{ role: 'user', content: 'ping' }],
			tools: [{ type: 'function', function: { name: 'ping' } }],
			stream: true,
			x_local: { cut_after: 1 },
		});
		const { chunks, done } = streamChunks(reply.text);
		expect(done).toBe(false);
		expect(chunks.map((chunk) => Object.keys(chunk.choices[0].delta))).toEqual([
			['role'],
			['tool_calls'],
		]);
	});
});

describe('x_local stream timing knobs', () => {
	it('delay_ms pauses between chunks', async () => {
		const reply = await rawChat(service(), keys.default, {
			model: 'echo-1',
			messages: [{ role: 'user', content: 'a b' }],
			stream: true,
			x_local: { delay_ms: 60 },
		});
		// role, a, b, finish, [DONE]: four pauses.
		expect(reply.endAfterMs).toBeGreaterThanOrEqual(235);
		expect(reply.chunks.length).toBeGreaterThanOrEqual(5);
		expect(joinDeltas(streamChunks(reply.text).chunks)).toBe('a b');
	});

	it('stall_body_ms sends headers and the first chunk, then stalls', async () => {
		const reply = await rawChat(service(), keys.default, {
			model: 'echo-1',
			messages: [{ role: 'user', content: 'a b' }],
			stream: true,
			x_local: { stall_body_ms: 300 },
		});
		expect(reply.firstBytesAfterMs).toBeLessThan(200);
		expect(reply.endAfterMs).toBeGreaterThanOrEqual(295);
		expect(
			JSON.parse(parseSse(reply.chunks[0].toString()).events[0].data).choices[0].delta,
		).toEqual({
			role: 'assistant',
		});
	});
});

describe('x_local usage knob', () => {
	const messages = [{ role: 'user', content: 'Why is the sky blue' }];

	it("cached_tokens: usage with OpenAI's details, answered and streamed", async () => {
		const details = {
			prompt_tokens: 5,
			completion_tokens: 12,
			total_tokens: 17,
			prompt_tokens_details: { cached_tokens: 2 },
			completion_tokens_details: { reasoning_tokens: 7 },
		};
		const body = { model: 'think-1', messages, x_local: { cached_tokens: 2 } };
		expect((await chat(service(), keys.default, body)).json.usage).toEqual(details);
		const streamed = await chat(service(), keys.default, {
			...body,
			stream: true,
			stream_options: { include_usage: true },
		});
		expect(streamChunks(streamed.text).chunks.at(-1)?.usage).toEqual(details);
		const cappedToPrompt = { ...body, model: 'echo-1', x_local: { cached_tokens: 99 } };
		expect((await chat(service(), keys.default, cappedToPrompt)).json.usage).toEqual({
			prompt_tokens: 5,
			completion_tokens: 5,
			total_tokens: 10,
			prompt_tokens_details: { cached_tokens: 5 },
			completion_tokens_details: { reasoning_tokens: 0 },
		});
	});
});
