import { keys, useLocalService } from '../../support/service.cts';
import { chat, sseData } from './client.cts';

const service = useLocalService();

const conversation = [
	{ role: 'system', content: 'You repeat things.' },
	{ role: 'user', content: 'first question' },
	{ role: 'assistant', content: 'first answer' },
	{ role: 'user', content: 'Say  hello to\tthe world' },
];
// 3 + 2 + 2 + 5 words
const promptTokens = 12;

describe('echo-1', () => {
	it('answers the last user message with word-count usage', async () => {
		const reply = await chat(service(), keys.default, { model: 'echo-1', messages: conversation });
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
		expect(reply.json).toEqual({
			id: expect.stringMatching(/^chatcmpl-\w+$/),
			object: 'chat.completion',
			created: expect.any(Number),
			model: 'echo-1-2026-11-01',
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: 'Say  hello to\tthe world' },
					finish_reason: 'stop',
				},
			],
			usage: { prompt_tokens: promptTokens, completion_tokens: 5, total_tokens: promptTokens + 5 },
		});
		expect(Math.abs(reply.json.created - Date.now() / 1000)).toBeLessThan(60);
	});

	it('gives every completion its own id', async () => {
		const first = await chat(service(), keys.default, { model: 'echo-1', messages: conversation });
		const second = await chat(service(), keys.default, { model: 'echo-1', messages: conversation });
		expect(first.json.id).not.toBe(second.json.id);
	});

	it('joins the text parts of an array content with newlines', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: [
				{
					role: 'user',
					content: [
						{ type: 'text', text: 'Describe this' },
						{ type: 'text', text: 'briefly' },
					],
				},
			],
		});
		expect(reply.json.choices[0].message.content).toBe('Describe this\nbriefly');
		expect(reply.json.usage).toEqual({ prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
	});

	it('cuts the reply to max_tokens words with finish_reason length', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: conversation,
			max_tokens: 2,
		});
		expect(reply.json.choices[0].message.content).toBe('Say  hello');
		expect(reply.json.choices[0].finish_reason).toBe('length');
		expect(reply.json.usage.completion_tokens).toBe(2);
	});

	it('keeps finish_reason stop when the reply fits max_tokens', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: conversation,
			max_tokens: 5,
		});
		expect(reply.json.choices[0].message.content).toBe('Say  hello to\tthe world');
		expect(reply.json.choices[0].finish_reason).toBe('stop');
	});

	it('counts at least one prompt token', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: [{ role: 'user', content: '' }],
		});
		expect(reply.json.choices[0].message.content).toBe('');
		expect(reply.json.usage).toEqual({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 });
	});
});

describe('reasoning models', () => {
	const messages = [{ role: 'user', content: 'Why is the sky blue' }];

	it('think-1 sends reasoning_content beside the content', async () => {
		const reply = await chat(service(), keys.default, { model: 'think-1', messages });
		expect(reply.json.model).toBe('think-1-2026-11-01');
		expect(reply.json.choices[0].message).toEqual({
			role: 'assistant',
			content: 'Why is the sky blue',
			reasoning_content: 'Reasoning about: Why is the sky blue',
		});
		expect(reply.json.usage).toEqual({ prompt_tokens: 5, completion_tokens: 12, total_tokens: 17 });
	});

	it('think-inline-1 puts the reasoning inline in <think> tags', async () => {
		const reply = await chat(service(), keys.default, { model: 'think-inline-1', messages });
		expect(reply.json.choices[0].message).toEqual({
			role: 'assistant',
			content: '<think>Reasoning about: Why is the sky blue</think>\n\nWhy is the sky blue',
		});
	});

	it('max_tokens cuts only the answer', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'think-1',
			messages,
			max_tokens: 3,
		});
		expect(reply.json.choices[0].message.content).toBe('Why is the');
		expect(reply.json.choices[0].message.reasoning_content).toBe(
			'Reasoning about: Why is the sky blue',
		);
		expect(reply.json.choices[0].finish_reason).toBe('length');
	});
});

describe('streaming', () => {
	interface Chunk {
		id: string;
		object: string;
		created: number;
		model: string;
		choices: Array<{ index: number; delta: Record<string, string>; finish_reason: string | null }>;
		usage?: Record<string, number>;
	}

	async function stream(body: Record<string, unknown>, key = keys.premium) {
		const reply = await chat(service(), key, { ...body, stream: true });
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
		const data = sseData(reply.text);
		expect(data.at(-1)).toBe('[DONE]');
		expect(reply.text.endsWith('data: [DONE]\n\n')).toBe(true);
		const chunks = data.slice(0, -1).map((text) => JSON.parse(text) as Chunk);
		const joined = (field: string) =>
			chunks.map((chunk) => chunk.choices[0]?.delta[field] ?? '').join('');
		return { chunks, content: joined('content'), reasoning: joined('reasoning_content') };
	}

	it.each(['echo-1', 'echo-pro', 'think-1', 'think-inline-1'])(
		'%s streams exactly the non-streamed content, one word per chunk',
		async (model) => {
			const body = { model, messages: conversation };
			const whole = await chat(service(), keys.premium, body);
			const streamed = await stream(body);
			const message = whole.json.choices[0].message;
			expect(streamed.content).toBe(message.content);
			expect(streamed.reasoning).toBe(message.reasoning_content ?? '');

			const { chunks } = streamed;
			expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
			expect(chunks[0].id).toMatch(/^chatcmpl-/);
			for (const chunk of chunks) {
				expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: whole.json.model });
				expect(chunk.usage).toBeUndefined();
			}
			expect(chunks[0].choices).toEqual([
				{ index: 0, delta: { role: 'assistant' }, finish_reason: null },
			]);
			expect(chunks.at(-1)?.choices).toEqual([{ index: 0, delta: {}, finish_reason: 'stop' }]);
			const words = chunks.slice(1, -1).map((chunk) => Object.values(chunk.choices[0].delta)[0]);
			for (const word of words) expect(word.trim()).toMatch(/^\S+$/);
		},
	);

	it('sends reasoning deltas before content deltas', async () => {
		const { chunks } = await stream({
			model: 'think-1',
			messages: [{ role: 'user', content: 'a b' }],
		});
		expect(chunks.slice(1, -1).map((chunk) => chunk.choices[0].delta)).toEqual([
			{ reasoning_content: 'Reasoning' },
			{ reasoning_content: ' about:' },
			{ reasoning_content: ' a' },
			{ reasoning_content: ' b' },
			{ content: 'a' },
			{ content: ' b' },
		]);
	});

	it('ends with finish_reason length when max_tokens cuts the reply', async () => {
		const { chunks, content } = await stream({
			model: 'echo-1',
			messages: conversation,
			max_tokens: 3,
		});
		expect(content).toBe('Say  hello to');
		expect(chunks.at(-1)?.choices[0].finish_reason).toBe('length');
	});

	it('adds a usage chunk with no choices when include_usage is true', async () => {
		const body = { model: 'echo-1', messages: conversation };
		const { chunks } = await stream({ ...body, stream_options: { include_usage: true } });
		const last = chunks.at(-1);
		expect(last?.choices).toEqual([]);
		expect(last?.usage).toEqual({
			prompt_tokens: promptTokens,
			completion_tokens: 5,
			total_tokens: promptTokens + 5,
		});
		expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
	});

	it('sends no usage chunk when include_usage is false', async () => {
		const { chunks } = await stream({
			model: 'echo-1',
			messages: conversation,
			stream_options: { include_usage: false },
		});
		expect(chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
	});
});
