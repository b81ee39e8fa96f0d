/**
 * A forward proxy for n8n's environment (HTTP_PROXY, HTTPS_PROXY): tunnels (CONNECT, as undici's proxy agent
 * asks) and absolute-URI requests (as n8n's request helper sends plain http through a proxy), each target
 * written down, so that a test sees which requests went through it.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';

export interface CountingProxy {
	/** http://127.0.0.1:PORT */
	url: string;
	/** The target of every tunnel (host:port) and of every forwarded request (its URL), in order. */
	targets: string[];
	close(): Promise<void>;
}

export async function startProxy(): Promise<CountingProxy> {
	const targets: string[] = [];
	const sockets = new Set<Socket>();
	const server = createServer((req, res) => {
		targets.push(req.url ?? '');
		const forwarded = request(
			req.url ?? '',
			{ method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		forwarded.on('error', () => res.destroy());
		req.pipe(forwarded);
	});
	server.on('connection', (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	server.on('connect', (req, client: Socket, head: Buffer) => {
		const target = req.url ?? '';
		targets.push(target);
		const [host, port] = target.split(':');
		const upstream = connect(Number(port), host, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length > 0) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		upstream.on('error', () => client.destroy());
		client.on('error', () => upstream.destroy());
		upstream.once('close', () => client.destroy());
		client.once('close', () => upstream.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		targets,
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
