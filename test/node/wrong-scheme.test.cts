/**
 * http and https mixed up in the Base URL: the words say the scheme is probably wrong and which to try, not
 * "network trouble". A plain HTTP server reached over https://, and a server that hangs up on plain HTTP as a
 * TLS port does, reached over http://.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';

const servers: Server[] = [];
afterAll(async () => {
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listening(server: Server): Promise<number> {
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

async function failure(baseUrl: string) {
	const { outputs } = await engineWith('sk-example-default', baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello', 'echo-1', { options: { maxRetries: 0 } }),
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	const json = outputs[0][0].json;
	return {
		message: json.error as string,
		description: (json.error_details as IDataObject).description as string,
	};
}

test('https:// to a plain HTTP port: the Base URL probably should start with http://', async () => {
	const port = await listening(createHttpServer((_request, response) => response.end('{}')));
	const { message, description } = await failure(`https://127.0.0.1:${port}/v1`);
	expect(message).toBe(
		`The service at https://127.0.0.1:${port}/v1/chat/completions answered in plain HTTP, not TLS: the Base URL probably starts with https:// where it should start with http:// (item 0)`,
	);
	expect(description).toMatch(
		new RegExp(
			`^Open the credential and try the Base URL with http://: http://127\\.0\\.0\\.1:${port}/v1\\. \\(network error [A-Z_]+\\)$`,
		),
	);
});

test('http:// to a port that hangs up on plain HTTP (as a TLS port does): the fix names https://', async () => {
	const port = await listening(
		createTcpServer((socket) => socket.once('data', () => socket.destroy())),
	);
	const { message, description } = await failure(`http://127.0.0.1:${port}/v1`);
	expect(message).toMatch(
		new RegExp(
			`^The service at http://127\\.0\\.0\\.1:${port}/v1/chat/completions closed the connection before answering`,
		),
	);
	expect(description).toContain(
		`If the service uses TLS, the Base URL must start with https:// (https://127.0.0.1:${port}/v1).`,
	);
});

test('a plain-HTTP service that answered before and now hangs up: no https:// hint; every request sent is counted', async () => {
	let received = 0;
	const port = await listening(
		createHttpServer((request, response) => {
			received++;
			if (received > 1) {
				request.socket.destroy();
				return;
			}
			response.setHeader('Content-Type', 'application/json');
			response.end(
				JSON.stringify({
					id: 'chatcmpl-1',
					object: 'chat.completion',
					created: 1,
					model: 'echo-1',
					choices: [
						{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' },
					],
				}),
			);
		}),
	);
	const baseUrl = `http://127.0.0.1:${port}/v1`;
	const engine = engineWith('sk-example-default', baseUrl);
	const first = await engine.runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello', 'echo-1'),
		items: jsonItems({}),
	});
	expect(first.outputs[0][0].json.content).toBe('Hi');
	const { outputs } = await engine.runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello', 'echo-1', {
			options: { maxRetries: 1 },
		}),
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	const json = outputs[0][0].json;
	const sentAgain = received - 1 - 2;
	expect(sentAgain).toBeGreaterThanOrEqual(0);
	expect(json.error).toBe(
		`The service at ${baseUrl}/chat/completions closed the connection before answering, after 2 attempts` +
			(sentAgain === 0
				? ''
				: ` (${2 + sentAgain} requests in all: ${sentAgain === 1 ? 'one was' : `${sentAgain} were`} sent again at once on a new connection, as a kept connection closed without answering)`) +
			' (item 0)',
	);
	expect((json.error_details as IDataObject).description).not.toMatch(/https:\/\//);
});
