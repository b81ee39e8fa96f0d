import { keys, useLocalService } from '../../support/service.cts';
import { send } from './client.cts';

const service = useLocalService();

describe('paths', () => {
	it.each([
		['POST', '/chat/completions'],
		['GET', '/models'],
		['GET', '/'],
	])('%s %s (no /v1) is a 404 naming the method and path', async (method, path) => {
		const reply = await send(`${service().origin}${path}`, {
			method,
			headers: { Authorization: `Bearer ${keys.default}` },
		});
		expect(reply.status).toBe(404);
		expect(reply.json.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
		expect(reply.json.error.message).toContain(`${method} ${path}`);
	});

	it('answers 404 for unknown paths and methods under /v1', async () => {
		for (const [method, path] of [
			['GET', '/v1/embeddings'],
			['GET', '/v1/chat/completions'],
		]) {
			const reply = await send(`${service().origin}${path}`, {
				method,
				headers: { Authorization: `Bearer ${keys.default}` },
			});
			expect(reply.status).toBe(404);
			expect(reply.json.error).toMatchObject({ code: 'not_found' });
			expect(reply.json.error.message).toContain(`${method} ${path}`);
		}
	});

	it('authenticates before routing under /v1', async () => {
		const reply = await send(`${service().baseUrl}/embeddings`);
		expect(reply.status).toBe(401);
	});
});

describe('authentication', () => {
	const causes: Array<[string, Record<string, string>, RegExp]> = [
		['missing header', {}, /Missing Authorization header/],
		['no Bearer prefix', { Authorization: keys.default }, /Bearer.*prefix is missing/],
		['lower-case bearer', { Authorization: `bearer ${keys.default}` }, /Bearer.*prefix is missing/],
		['no key after Bearer', { Authorization: 'Bearer' }, /no API key/],
		[
			'extra space before the key',
			{ Authorization: `Bearer  ${keys.default}` },
			/surrounding spaces/,
		],
		[
			'no-break space after the key',
			{ Authorization: `Bearer ${keys.default}\u00a0` },
			/surrounding spaces/,
		],
		[
			'unknown key',
			{ Authorization: 'Bearer sk-example-nonexistent' },
			/Incorrect API key provided/,
		],
		['expired key', { Authorization: `Bearer ${keys.expired}` }, /has expired/],
	];

	it.each(causes)('%s is a 401 invalid_api_key', async (_cause, headers, message) => {
		for (const path of ['/models', '/chat/completions']) {
			const reply = await send(`${service().baseUrl}${path}`, {
				method: path === '/models' ? 'GET' : 'POST',
				headers: { 'Content-Type': 'application/json', ...headers },
				body: path === '/models' ? undefined : '{}',
			});
			expect(reply.status).toBe(401);
			expect(reply.json.error).toMatchObject({
				type: 'invalid_request_error',
				code: 'invalid_api_key',
			});
			expect(reply.json.error.message).toMatch(message);
		}
	});

	it('gives each kind of cause its own message and never echoes a full key', async () => {
		const messages = new Set<string>();
		for (const [, headers] of causes) {
			const reply = await send(`${service().baseUrl}/models`, { headers });
			messages.add(reply.json.error.message);
			expect(reply.text).not.toContain(keys.default);
			expect(reply.text).not.toContain(keys.expired);
			expect(reply.text).not.toContain('sk-example-nonexistent');
		}
		expect(messages.size).toBe(new Set(causes.map(([, , message]) => message.source)).size);
	});

	it('shows a masked key', async () => {
		const reply = await send(`${service().baseUrl}/models`, {
			headers: { Authorization: 'Bearer sk-example-nonexistent' },
		});
		expect(reply.json.error.message).toContain('sk-exa...tent');
	});
});
