/**
 * The remote relay: makes the local service look like a gateway across a network, for the remote benchmark.
 * Clients connect to https://127.0.0.1:PORT; every byte waits `--one-way-ms` (25) each way, and a new
 * connection's first bytes also wait the round trip that a TCP handshake would have cost (so a connection
 * costs one round trip, and each TLS handshake round trip one more, as they do across a network). TLS ends here,
 * with the certificate of `--tls-dir` (scripts/bench/throwaway-ca.sh), then plain HTTP goes on to the service.
 * It counts the TCP connections clients opened and the TLS handshakes, full and resumed.
 *
 * Run by dev/relay/start.cts as a child process with an IPC channel: it prints `relay listening on
 * https://127.0.0.1:PORT` and answers the message `counts` (or `reset`, which also zeroes them) with
 * `{ connections, fullHandshakes, resumedHandshakes }`.
 * Usage: node dev/relay/main.mts --target PORT --tls-dir DIR [--one-way-ms 25]
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { createServer as createTlsServer } from 'node:tls';
import type { TLSSocket } from 'node:tls';

export interface RelayCounts {
	connections: number;
	fullHandshakes: number;
	resumedHandshakes: number;
}

const { values } = parseArgs({
	options: {
		target: { type: 'string' },
		'tls-dir': { type: 'string' },
		'one-way-ms': { type: 'string', default: '25' },
	},
});
if (values.target === undefined || values['tls-dir'] === undefined) {
	console.error('Usage: node dev/relay/main.mts --target PORT --tls-dir DIR [--one-way-ms 25]');
	process.exit(2);
}
const targetPort = Number(values.target);
const oneWayMs = Number(values['one-way-ms']);
const tlsDir = values['tls-dir'];

const counts: RelayCounts = { connections: 0, fullHandshakes: 0, resumedHandshakes: 0 };

/**
 * Writes what `from` sends into `to`, each chunk (and the end) no sooner than `notBefore(now)`, in order: one
 * queue per direction, so that a later chunk never overtakes an earlier one.
 */
function delayedPipe(from: Socket, to: Socket, notBefore: (now: number) => number): void {
	const queue: Array<{ due: number; chunk?: Buffer }> = [];
	let timer: NodeJS.Timeout | undefined;
	const pump = (): void => {
		timer = undefined;
		while (queue.length > 0 && queue[0].due <= performance.now()) {
			const { chunk } = queue.shift()!;
			if (chunk === undefined) to.end();
			else if (!to.destroyed) to.write(chunk);
		}
		if (queue.length > 0) timer = setTimeout(pump, Math.max(0, queue[0].due - performance.now()));
	};
	const push = (chunk?: Buffer): void => {
		queue.push({ due: notBefore(performance.now()), chunk });
		timer ??= setTimeout(pump, Math.max(0, queue[0].due - performance.now()));
	};
	from.on('data', (chunk: Buffer) => push(chunk));
	from.on('end', () => push());
	from.on('close', () => {
		if (queue.length === 0 && !to.destroyed) to.end();
	});
	from.on('error', () => to.destroy());
}

// TLS ends on a port of its own, behind the delay; then plain HTTP to the service, at once.
const tlsServer = createTlsServer({
	key: readFileSync(join(tlsDir, 'server-key.pem')),
	cert: readFileSync(join(tlsDir, 'server.pem')),
});
tlsServer.on('secureConnection', (socket: TLSSocket) => {
	if (socket.isSessionReused()) counts.resumedHandshakes++;
	else counts.fullHandshakes++;
	const service = connect(targetPort, '127.0.0.1');
	socket.pipe(service).pipe(socket);
	socket.on('error', () => service.destroy());
	service.on('error', () => socket.destroy());
});
tlsServer.on('tlsClientError', () => undefined);
await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
const tlsPort = (tlsServer.address() as AddressInfo).port;

const relay = createServer((client) => {
	counts.connections++;
	const acceptedAt = performance.now();
	const inner = connect(tlsPort, '127.0.0.1');
	// The client's first bytes left when its SYN-ACK came back: a round trip after it connected.
	delayedPipe(client, inner, (now) => Math.max(now + oneWayMs, acceptedAt + 3 * oneWayMs));
	delayedPipe(inner, client, (now) => now + oneWayMs);
});
await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));

process.on('message', (message: unknown) => {
	process.send?.({ ...counts });
	if (message === 'reset')
		Object.assign(counts, { connections: 0, fullHandshakes: 0, resumedHandshakes: 0 });
});
process.on('disconnect', () => process.exit(0));
console.log(`relay listening on https://127.0.0.1:${(relay.address() as AddressInfo).port}`);
