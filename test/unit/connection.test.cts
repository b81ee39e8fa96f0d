import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import {
	cleanApiKey,
	connectionFrom,
	hasVersionSegment,
	normalizeBaseUrl,
	redactApiKey,
	redactHeaderValues,
} from '../../engine/connection';
import { carriesSecret } from '../../engine/header-secrets';

describe('API key hygiene', () => {
	test.each([
		['sk-example-1', 'sk-example-1'],
		['  sk-example-1  ', 'sk-example-1'],
		['sk-example-1\n', 'sk-example-1'],
		['Bearer sk-example-1', 'sk-example-1'],
		['  bearer   sk-example-1 ', 'sk-example-1'],
	])('%j is sent as %j', (raw, clean) => {
		expect(cleanApiKey(raw)).toBe(clean);
	});

	test('the credential sends the cleaned key as a Bearer token', async () => {
		const options = await (new ChatCompletionsApi().authenticate as Function)(
			{ apiKey: ' Bearer sk-example-key ', baseUrl: 'http://x/v1' },
			{ url: '/models', headers: { Accept: 'application/json' } },
		);
		expect(options.headers).toEqual({
			Accept: 'application/json',
			Authorization: 'Bearer sk-example-key',
		});
	});

	test('a key with a line break inside is refused before any request', () => {
		expect(() => connectionFrom({ apiKey: 'sk-exa\nmple', baseUrl: 'http://x/v1' })).toThrow(
			'The API key in the credential contains spaces or line breaks',
		);
	});

	test('the key is masked wherever it would appear', () => {
		expect(
			redactApiKey('Incorrect API key provided: sk-example-secret-1234.', 'sk-example-secret-1234'),
		).toBe('Incorrect API key provided: sk-…1234.');
	});

	const key = 'sk-example-SECRET-9f8e7d6c5b4a';
	test.each([
		[
			'its first 20 characters',
			`Key ${key.slice(0, 20)}... is invalid`,
			'Key sk-…5b4a... is invalid',
		],
		['8 characters from its middle', `hash ${key.slice(11, 19)} unknown`, 'hash sk-…5b4a unknown'],
		['its last 8 characters', `key ending ${key.slice(-8)}`, 'key ending sk-…5b4a'],
		['two pieces', `${key.slice(0, 9)} and ${key.slice(20)}`, 'sk-…5b4a and sk-…5b4a'],
		['the whole key twice', `${key}${key}`, 'sk-…5b4ask-…5b4a'],
	])('a service that quotes %s gets it masked', (_name, text, shown) => {
		expect(redactApiKey(text, key)).toBe(shown);
	});

	test('7 characters of the key in a row are no quote of it', () => {
		const text = `prefix ${key.slice(0, 7)} and ${key.slice(-7)}`;
		expect(redactApiKey(text, key)).toBe(text);
	});
});

describe('Base URL hygiene', () => {
	test.each([
		['https://api.example.com/v1', 'https://api.example.com/v1'],
		['https://api.example.com/v1/', 'https://api.example.com/v1'],
		[' https://api.example.com/v1/chat/completions ', 'https://api.example.com/v1'],
		['https://api.example.com/v1/chat/completions/', 'https://api.example.com/v1'],
		['https://api.example.com/v1/models', 'https://api.example.com/v1'],
	])('%j is used as %j', (raw, clean) => {
		expect(normalizeBaseUrl(raw)).toBe(clean);
	});

	test('the version segment is recognised', () => {
		expect(hasVersionSegment('https://api.example.com/v1')).toBe(true);
		expect(hasVersionSegment('https://api.example.com/api/v2')).toBe(true);
		expect(hasVersionSegment('https://api.example.com')).toBe(false);
		expect(hasVersionSegment('https://api.example.com/openai')).toBe(false);
	});

	test('a Base URL without a scheme is refused with the fix', () => {
		expect(() => connectionFrom({ apiKey: 'sk-example', baseUrl: 'api.example.com/v1' })).toThrow(
			'The Base URL "api.example.com/v1" is not an http:// or https:// address',
		);
	});
});

describe('Extra Headers', () => {
	const connect = (extraHeaders: unknown) =>
		connectionFrom({
			apiKey: 'sk-example-1',
			baseUrl: 'http://x/v1',
			extraHeaders: extraHeaders as string,
		});

	test.each([
		['absent', undefined, {}],
		['empty', '', {}],
		['blank', ' \n ', {}],
		['an empty object', '{}', {}],
		[
			'JSON text',
			'{"X-Title": "My workflow", "HTTP-Referer": "https://example.com"}',
			{ 'X-Title': 'My workflow', 'HTTP-Referer': 'https://example.com' },
		],
		['an object n8n parsed already', { 'x-litellm-tags': 'a,b' }, { 'x-litellm-tags': 'a,b' }],
		[
			'an empty value and a tab',
			'{"X-Empty": "", "X-Tab": "a\\tb"}',
			{ 'X-Empty': '', 'X-Tab': 'a\tb' },
		],
	])('%s: the headers sent', (_name, raw, headers) => {
		expect(connect(raw).extraHeaders).toEqual(headers);
	});

	test.each([
		['{"X-Title": ', 'is not valid JSON'],
		['"X-Title"', 'is not a JSON object'],
		['null', 'is not a JSON object'],
		['{"": "a"}', 'has an empty header name'],
		['{"X-Title:": "a"}', 'has a header name that is not valid: ":" after "X-Title"'],
		[
			'{"Tïtle": "a"}',
			'has a header name that is not valid: "Tïtle" ("ï" cannot be in a header name)',
		],
		[
			'{"X Title": "a"}',
			'has a header name that is not valid: "X Title" (" " cannot be in a header name)',
		],
		[
			'{"X-Token sk-Qz7Lw2Rk9Xm4Tp8Nc5Vb": ""}',
			'has a header name that is not valid: " " after "X-Token"',
		],
		[
			'{"AUTHORIZATION": "Basic x"}',
			'cannot set AUTHORIZATION: the API Key field is sent as Authorization',
		],
		['{"Content-Type": "text/plain"}', 'cannot set Content-Type: every request body is JSON'],
		// Copied from a curl command: with them every request failed as if the service could not be reached.
		['{"Content-Length": "42"}', 'cannot set Content-Length: the length of each request body'],
		['{"Expect": "100-continue"}', 'cannot set Expect: requests are sent whole'],
		['{"transfer-encoding": "chunked"}', 'cannot set transfer-encoding: how a body is sent'],
		['{"Connection": "close"}', 'cannot set Connection: connections are kept open or closed'],
		['{"X-A": "1", "x-a": "2"}', 'has X-A and x-a, which are the same header'],
		['{"X-A": ["1"]}', 'gives X-A a value that is not text'],
		['{"X-A": "1\\n2"}', 'gives X-A a value with a line break'],
		['{"X-A": "1\\r2"}', 'gives X-A a value with a line break'],
		['{"X-A": "1\\u00002"}', 'gives X-A a value with a character a header cannot carry'],
		['{"X-A": "你好"}', 'gives X-A a value with a character a header cannot carry'],
	])('%s is refused: %s', (raw, message) => {
		expect(() => connect(raw)).toThrow(`Extra Headers in the credential ${message}`);
	});

	test('a secret value is hidden wherever it is quoted whole; short values, short pieces and values that carry no secret are left', () => {
		const headers = {
			'X-Token': 'tok-Qz7Lw2Rk9Xm4',
			'X-Flag': 'yes',
			'HTTP-Referer': 'https://example.com',
			'x-portkey-provider': 'openai',
		};
		expect(
			redactHeaderValues(
				'Bad token tok-Qz7Lw2Rk9Xm4 (tok-Qz7Lw2Rk9Xm4) from https://example.com/v1, flag yes, openai error',
				headers,
			),
		).toBe(
			'Bad token [X-Token value] ([X-Token value]) from https://example.com/v1, flag yes, openai error',
		);
		expect(redactHeaderValues('see https://api.example.org', headers)).toBe(
			'see https://api.example.org',
		);
	});

	test("a piece of a value as long as half of it is hidden, as a service that quotes a token's start shows it", () => {
		const headers = { 'X-Proxy-Token': 'hdrsecret-Q7w9Lp2Rk8Xm' };
		expect(redactHeaderValues('Token hdrsecret-Q7... is not allowed', headers)).toBe(
			'Token [X-Proxy-Token value]... is not allowed',
		);
		expect(redactHeaderValues('Token ...Q7w9Lp2Rk8Xm is not allowed', headers)).toBe(
			'Token ...[X-Proxy-Token value] is not allowed',
		);
		// Fewer characters than half the value are left: "hdrsecret" alone says little of it.
		expect(redactHeaderValues('no hdrsecret here', headers)).toBe('no hdrsecret here');
	});
});

describe('which Extra Headers carry secrets', () => {
	test.each([
		['X-Api-Key', 'abc', true],
		['x-portkey-virtual-key', 'openai-prod', true],
		['X-Proxy-Token', 'short', true],
		['X-Client-Secret', 'x', true],
		['Proxy-Authorization', 'Basic x', true],
		['X-Password', 'hunter2', true],
		['Cookie', 'session=1', true],
		['X-Signature', 'abc', true],
		['X-Session', 'Qz7Lw2Rk9Xm4Tp8Nc5Vb1', true],
		['X-Upstream', 'sk-or-v1-0123456789abcdef0123456789abcdef', true],
		['x-portkey-provider', 'openai', false],
		['x-portkey-custom-host', 'http://127.0.0.1:43123/v1', false],
		['HTTP-Referer', 'https://example.com/support-bot', false],
		['X-Title', 'My workflow', false],
		['x-litellm-tags', 'team-support', false],
		['x-portkey-trace-id', 'trace-42', false],
		['X-Team', 'my-company-production-gateway', false],
	])('%s: %s -> %s', (name, value, secret) => {
		expect(carriesSecret(name, value)).toBe(secret);
	});
});
