import { keys, useLocalService } from '../../support/service.cts';
import { chat, hello, send } from './client.cts';

const service = useLocalService();

function expectBadRequest(
	reply: { status: number; json: any },
	param: string | null,
	message: RegExp,
): void {
	expect(reply.status).toBe(400);
	expect(Object.keys(reply.json.error)).toEqual(['message', 'type', 'param', 'code']);
	expect(reply.json.error.type).toBe('invalid_request_error');
	expect(reply.json.error.param).toBe(param);
	expect(reply.json.error.message).toMatch(message);
	expect(reply.json.error.code === null || typeof reply.json.error.code === 'string').toBe(true);
}

describe('POST /v1/chat/completions body checks', () => {
	const post = (contentType: string | undefined, body: string) =>
		send(`${service().baseUrl}/chat/completions`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${keys.default}`,
				...(contentType ? { 'Content-Type': contentType } : {}),
			},
			body,
		});

	it('needs Content-Type application/json', async () => {
		const body = JSON.stringify({ model: 'echo-1', messages: hello });
		expectBadRequest(
			await post('text/plain', body),
			null,
			/Content-Type must be application\/json/,
		);
		expect((await post('application/json; charset=utf-8', body)).status).toBe(200);
	});

	it('needs a JSON object body', async () => {
		expectBadRequest(
			await post('application/json', '{"model": "echo-1",'),
			null,
			/could not parse the JSON body/,
		);
		expectBadRequest(await post('application/json', '[1]'), null, /must be a JSON object/);
	});

	const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
		['model missing', { messages: hello }, 'model', /'model' is required/],
		['model not a string', { model: 42, messages: hello }, 'model', /'model' must be a string/],
		['messages missing', { model: 'echo-1' }, 'messages', /'messages' is required/],
		['messages not an array', { model: 'echo-1', messages: 'hi' }, 'messages', /must be an array/],
		['messages empty', { model: 'echo-1', messages: [] }, 'messages', /must not be empty/],
		[
			'message not an object',
			{ model: 'echo-1', messages: [...hello, 'hi'] },
			'messages[1]',
			/^messages\[1\]: /,
		],
		[
			'role missing',
			{ model: 'echo-1', messages: [...hello, { content: 'x' }] },
			'messages[1].role',
			/^messages\[1\]: 'role' is required/,
		],
		[
			'role unknown',
			{ model: 'echo-1', messages: [{ role: 'bot', content: 'x' }] },
			'messages[0].role',
			/^messages\[0\]: 'role' must be one of/,
		],
		[
			'content missing',
			{ model: 'echo-1', messages: [...hello, { role: 'user' }] },
			'messages[1].content',
			/^messages\[1\]: 'content' is required/,
		],
		[
			'content null on assistant without tool_calls',
			{ model: 'echo-1', messages: [{ role: 'assistant', content: null }, ...hello] },
			'messages[0].content',
			/^messages\[0\]: /,
		],
		[
			'content a number',
			{ model: 'echo-1', messages: [{ role: 'user', content: 5 }] },
			'messages[0].content',
			/^messages\[0\]: 'content' must be a string or an array/,
		],
		[
			'text part without text',
			{ model: 'echo-1', messages: [{ role: 'user', content: [{ type: 'text' }] }] },
			'messages[0].content[0].text',
			/^messages\[0\]\.content\[0\]: /,
		],
		[
			'temperature above 2',
			{ model: 'echo-1', messages: hello, temperature: 2.5 },
			'temperature',
			/'temperature' must be a number from 0 to 2/,
		],
		[
			'temperature a string',
			{ model: 'echo-1', messages: hello, temperature: '1' },
			'temperature',
			/'temperature'/,
		],
		[
			'top_p above 1',
			{ model: 'echo-1', messages: hello, top_p: 1.5 },
			'top_p',
			/'top_p' must be a number from 0 to 1/,
		],
		['top_p negative', { model: 'echo-1', messages: hello, top_p: -0.1 }, 'top_p', /'top_p'/],
		[
			'max_tokens zero',
			{ model: 'echo-1', messages: hello, max_tokens: 0 },
			'max_tokens',
			/'max_tokens' must be a positive integer/,
		],
		[
			'max_tokens fractional',
			{ model: 'echo-1', messages: hello, max_tokens: 1.5 },
			'max_tokens',
			/'max_tokens'/,
		],
		[
			'stream not a boolean',
			{ model: 'echo-1', messages: hello, stream: 'yes' },
			'stream',
			/'stream' must be a boolean/,
		],
	];

	it.each(cases)('%s is a 400', async (_case, body, param, message) => {
		expectBadRequest(await chat(service(), keys.default, body), param, message);
	});

	it('accepts every role, null assistant content with tool_calls, and the edge values', async () => {
		const reply = await chat(service(), keys.default, {
			model: 'echo-1',
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'developer', content: 'Really brief.' },
				{ role: 'user', content: 'What is the weather?' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } },
					],
				},
				{ role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
				{
					role: 'user',
					content: [{ type: 'text', text: 'Thanks' }],
				},
			],
			temperature: 2,
			top_p: 0,
			max_tokens: 1,
			tools: [],
		});
		expect(reply.status).toBe(200);
	});

	it('checks the body before looking up the model', async () => {
		const reply = await chat(service(), keys.default, { model: 'gpt-nonexistent', messages: [] });
		expect(reply.status).toBe(400);
	});
});
