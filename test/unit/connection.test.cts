import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import {
	cleanApiKey,
	connectionFrom,
	hasVersionSegment,
	normalizeBaseUrl,
	redactApiKey,
} from '../../engine/connection';

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
		expect(options.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer sk-example-key' });
	});

	test('a key with a line break inside is refused before any request', () => {
		expect(() => connectionFrom({ apiKey: 'sk-exa\nmple', baseUrl: 'http://x/v1' })).toThrow(
			'The API key in the credential contains spaces or line breaks',
		);
	});

	test('the key is masked wherever it would appear', () => {
		expect(redactApiKey('Incorrect API key provided: sk-example-secret-1234.', 'sk-example-secret-1234')).toBe(
			'Incorrect API key provided: sk-…1234.',
		);
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
