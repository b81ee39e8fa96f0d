import { readBody } from '../../../engine/reply/body';
import { parseCompletion } from '../../../engine/reply/completion';
import { serviceErrorFrom } from '../../../engine/reply/error-body';
import { parseModels } from '../../../engine/reply/models';
import { sentReasoning, splitReasoning } from '../../../engine/reply/reasoning';
import { ReplyError, ServiceError } from '../../../engine/failures/errors';

const reply = (status: number, text: string) => ({ status, headers: {}, text });

describe('reading bodies of any shape', () => {
	test('JSON, two JSON objects back to back, HTML, text, empty', () => {
		expect(readBody('{"a":1}')).toMatchObject({ kind: 'json', json: { a: 1 } });
		expect(
			readBody('{"error":{"message":"first \\"}"}}{"error":{"message":"second"}}'),
		).toMatchObject({
			kind: 'json',
			json: { error: { message: 'first "}' } },
		});
		expect(
			readBody('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'),
		).toEqual({
			kind: 'html',
			summary: '502 Bad Gateway',
		});
		expect(readBody('404 page not found\n')).toEqual({
			kind: 'text',
			summary: '404 page not found',
		});
		expect(readBody('  ')).toEqual({ kind: 'empty', summary: '(empty body)' });
	});
});

describe('service errors in every shape gateways send', () => {
	test.each([
		[
			'documented object',
			403,
			'{"error":{"message":"no access","type":"invalid_request_error","code":"model_not_found"}}',
			['no access', 'invalid_request_error', 'model_not_found', 'json'],
		],
		[
			'error as a plain string',
			401,
			'{"error":"Unauthorized"}',
			['Unauthorized', undefined, undefined, 'json'],
		],
		[
			'type and code "None"',
			500,
			'{"error":{"message":"Upstream failed","type":"None","code":"None"}}',
			['Upstream failed', undefined, undefined, 'json'],
		],
		[
			'numeric code',
			400,
			'{"error":{"message":"Invalid parameter","type":"invalid_request_error","code":400}}',
			['Invalid parameter', 'invalid_request_error', '400', 'json'],
		],
		[
			'FastAPI detail',
			422,
			'{"detail":"field required"}',
			['field required', undefined, undefined, 'json'],
		],
		[
			'HTML page',
			502,
			'<html><head><title>502 Bad Gateway</title></head></html>',
			['502 Bad Gateway', undefined, undefined, 'html'],
		],
		['plain text', 404, '404 page not found', ['404 page not found', undefined, undefined, 'text']],
		['empty body', 429, '', ['(empty body)', undefined, undefined, 'empty']],
	])('%s', (_name, status, text, [message, type, code, kind]) => {
		const error = serviceErrorFrom(reply(status, text));
		expect([error.serviceMessage, error.errorType, error.errorCode, error.bodyKind]).toEqual([
			message,
			type,
			code,
			kind,
		]);
		expect(error.status).toBe(status);
	});
});

describe('completions', () => {
	test('a 200 completion is returned as sent', () => {
		const body = {
			id: 'c1',
			model: 'm',
			choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
		};
		expect(parseCompletion(reply(200, JSON.stringify(body)))).toEqual(body);
	});

	test('a 200 whose body is an error object is a ServiceError', () => {
		expect(() =>
			parseCompletion(reply(200, '{"error":{"message":"overloaded","code":"upstream_error"}}')),
		).toThrow(ServiceError);
	});

	test('a 200 without choices or not JSON is a ReplyError naming what came', () => {
		expect(() => parseCompletion(reply(200, '{"object":"chat.completion"}'))).toThrow(ReplyError);
		expect(() => parseCompletion(reply(200, 'OK'))).toThrow(
			'The service answered 200 without a JSON completion: OK',
		);
	});

	test('an error status is a ServiceError', () => {
		expect(() => parseCompletion(reply(500, '{"error":{"message":"boom"}}'))).toThrow('boom');
	});
});

describe('reasoning is separated from the reply', () => {
	test.each([
		[
			'reasoning_content',
			{ content: 'Paris', reasoning_content: 'It is the capital.' },
			{ content: 'Paris', reasoning: 'It is the capital.' },
		],
		[
			'reasoning',
			{ content: 'Paris', reasoning: 'Capital.' },
			{ content: 'Paris', reasoning: 'Capital.' },
		],
		[
			'inline think',
			{ content: '<think>\nCapital.\n</think>\n\nParis' },
			{ content: 'Paris', reasoning: 'Capital.' },
		],
		['none', { content: 'Paris' }, { content: 'Paris' }],
		['null content', { content: null }, { content: '' }],
	])('%s', (_name, message, expected) => {
		expect(splitReasoning(message)).toEqual(expected);
	});
});

describe('the reasoning fields sent back with a message', () => {
	test.each([
		[
			'reasoning_content',
			{ content: null, reasoning_content: 'Why' },
			{ reasoning_content: 'Why' },
		],
		['reasoning', { content: 'A', reasoning: 'Why' }, { reasoning: 'Why' }],
		[
			'an empty reasoning_content (the field itself is what DeepSeek checks)',
			{ content: 'A', reasoning_content: '' },
			{ reasoning_content: '' },
		],
		[
			'reasoning and reasoning_details (OpenRouter)',
			{ reasoning: 'Why', reasoning_details: [{ type: 'reasoning.text', text: 'Why' }] },
			{ reasoning: 'Why', reasoning_details: [{ type: 'reasoning.text', text: 'Why' }] },
		],
		['none', { content: 'A' }, {}],
		[
			'null fields are not sent',
			{ content: 'A', reasoning_content: null, reasoning: null, reasoning_details: null },
			{},
		],
		[
			'inline think: the content as sent',
			{ content: '<think>Why</think>A' },
			{ content: '<think>Why</think>A' },
		],
		['think later in the text is no reasoning', { content: 'A <think>Why</think>' }, {}],
	])('%s', (_name, message, expected) => {
		expect(sentReasoning(message)).toEqual(expected);
	});
});

describe('model lists', () => {
	test('sorted ids with owners', () => {
		const text = JSON.stringify({
			object: 'list',
			data: [{ id: 'b', owned_by: 'x' }, { id: 'a' }, { nope: 1 }],
		});
		expect(parseModels(reply(200, text))).toEqual([
			{ id: 'a', ownedBy: undefined },
			{ id: 'b', ownedBy: 'x' },
		]);
	});

	test('an error reply becomes a ServiceError', () => {
		expect(() =>
			parseModels(reply(401, '{"error":{"message":"Incorrect API key provided"}}')),
		).toThrow('Incorrect API key provided');
	});
});
