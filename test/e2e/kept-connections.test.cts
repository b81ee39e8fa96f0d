/**
 * n8n's own AI transport in a real n8n: n8n runs with a proxy in its environment (HTTP_PROXY and HTTPS_PROXY,
 * NO_PROXY=127.0.0.1) and its SSRF protection on, with `localhost` allowed. The service by the name localhost
 * is reached through the proxy; by 127.0.0.1 it is a restricted address. The service numbers the connections
 * it saw, the proxy writes down its tunnels.
 */
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { chatNode, questionsBehindWebhook } from '../../dev/n8n/workflows.cts';
import type { LocalService } from '../support/service.cts';
import { keys, startService } from '../support/service.cts';
import type { CountingProxy } from './support/connect-proxy.cts';
import { startProxy } from './support/connect-proxy.cts';

let service: LocalService;
let proxy: CountingProxy;
beforeAll(async () => {
	service = await startService();
	proxy = await startProxy();
});
afterAll(async () => {
	await service?.stop();
	await proxy?.close();
});
beforeEach(async () => {
	await service.clearRequests();
	proxy.targets.length = 0;
});

const viaProxy = { id: 'via-proxy', name: 'Service through the proxy' };
const blocked = { id: 'blocked', name: 'Service on a restricted address' };

const n8n = useRealN8n(() => {
	const batch = (path: string, credential: { id: string; name: string }) =>
		questionsBehindWebhook(path, {
			...chatNode({
				credential,
				model: 'echo-1',
				prompt: '={{ $json.question }}',
				options: { concurrency: 1, maxRetries: 0 },
			}),
			onError: 'continueRegularOutput',
		});
	const data = (baseUrl: string) => ({ apiKey: keys.default, baseUrl });
	return {
		credentials: [
			{
				...viaProxy,
				type: 'chatCompletionsApi',
				data: data(service.baseUrl.replace('127.0.0.1', 'localhost')),
			},
			{ ...blocked, type: 'chatCompletionsApi', data: data(service.baseUrl) },
		],
		workflows: [batch('batch', viaProxy), batch('blocked', blocked)],
		env: {
			HTTP_PROXY: proxy.url,
			HTTPS_PROXY: proxy.url,
			NO_PROXY: '127.0.0.1',
			N8N_SSRF_PROTECTION_ENABLED: 'true',
			N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost',
		},
	};
});

/** Runs the batch workflow on `count` questions and returns its items. */
async function batch(path: string, count: number): Promise<Array<Record<string, unknown>>> {
	const questions = Array.from({ length: count }, (_, index) => ({
		question: `Question ${index}`,
	}));
	return (await n8n().answer(path, { questions })) as unknown as Array<Record<string, unknown>>;
}

const answered = (count: number) =>
	Array.from({ length: count }, (_, index) =>
		expect.objectContaining({ content: `Question ${index}` }),
	);

const connections = async () =>
	new Set((await service.requests()).map((request) => request.connection));

const serviceHost = () => new URL(service.origin.replace('127.0.0.1', 'localhost')).host;

/**
 * undici checks a connection that has just become idle for one turn of the event loop before it reuses it:
 * a request sent at once after the reply before it (Concurrency 1) opens a second connection, and then the
 * two take turns. No more than that, however many requests.
 */
const AT_MOST = 2;

test("many requests, two executions: the same connection or two, through the proxy from n8n's environment", async () => {
	expect(await batch('batch', 12)).toEqual(answered(12));
	expect(await batch('batch', 3)).toEqual(answered(3));
	expect(await service.requests()).toHaveLength(15);
	const opened = (await connections()).size;
	expect(opened).toBeLessThanOrEqual(AT_MOST);
	// A tunnel through the proxy for each connection, to the service's host.
	expect(proxy.targets).toEqual(Array(opened).fill(serviceHost()));
});

test("a restricted address: refused by n8n's SSRF protection, in its words, nothing sent", async () => {
	const items = await batch('blocked', 2);
	expect(items.map((item) => item.error)).toEqual([
		'The request was blocked because it resolves to a restricted IP address (item 0)',
		'The request was blocked because it resolves to a restricted IP address (item 1)',
	]);
	expect(await service.requests()).toEqual([]);
});

test('the service closes the kept connection while idle between items: the next is answered (Max Retries 0)', async () => {
	expect(await batch('batch', 1)).toEqual(answered(1));
	await service.idleClose();
	expect(await batch('batch', 1)).toEqual(answered(1));
	expect((await connections()).size).toBe(2);
});

test('the service restarts between items: the next is answered on a new connection (Max Retries 0)', async () => {
	expect(await batch('batch', 1)).toEqual(answered(1));
	const port = new URL(service.origin).port;
	const tunnels = proxy.targets.length;
	await service.stop();
	service = await startService({ args: ['--port', port] });
	expect(await batch('batch', 1)).toEqual(answered(1));
	expect(await service.requests()).toHaveLength(1);
	// The kept connection ended with the service: the item went through a new tunnel.
	expect(proxy.targets.slice(tunnels)).toEqual([serviceHost()]);
});
