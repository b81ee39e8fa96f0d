/**
 * Starts the remote relay (dev/relay/main.mts) in front of a local service, as a child process of its own so
 * that its TLS and timers do not share the measured client's event loop. Used by the remote benchmark
 * (scripts/bench-remote.mts and test/e2e/chat-model-bench.test.cts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { RelayCounts } from './main.mts';

export type { RelayCounts };

export interface Relay {
	/** https://127.0.0.1:PORT/v1: the service's base URL through the relay. */
	baseUrl: string;
	/** What the relay counted since it started or since the last reset. */
	counts(): Promise<RelayCounts>;
	/** The counts so far, then zeroes them. */
	reset(): Promise<RelayCounts>;
	stop(): Promise<void>;
}

const startTimeoutMs = 15_000;

/** What a measurement cost in connections, beside the most requests the service had in flight. */
export function connectionsLine(counts: RelayCounts, maxInFlight: number): string {
	return (
		`${counts.connections} connections, ${counts.fullHandshakes} full + ${counts.resumedHandshakes} resumed TLS ` +
		`handshakes, at most ${maxInFlight} requests in flight`
	);
}

/** The folder with the throw-away CA's files (scripts/bench/throwaway-ca.sh), as bench.sh exports it. */
export function tlsDirFromEnv(): string {
	const dir = process.env.REMOTE_TLS_DIR;
	if (!dir || !process.env.NODE_EXTRA_CA_CERTS) {
		throw new Error(
			'REMOTE_TLS_DIR and NODE_EXTRA_CA_CERTS are not set: run the remote benchmark with `npm run bench -- remote`',
		);
	}
	return dir;
}

/** The relay to the service at `serviceOrigin` (http://127.0.0.1:PORT), `oneWayMs` each way. */
export function startRelay(serviceOrigin: string, tlsDir: string, oneWayMs = 25): Promise<Relay> {
	const child = spawn(
		process.execPath,
		[
			join(__dirname, 'main.mts'),
			'--target',
			new URL(serviceOrigin).port,
			'--tls-dir',
			tlsDir,
			'--one-way-ms',
			String(oneWayMs),
		],
		{ stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
	);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const ask = (message: 'counts' | 'reset') =>
		new Promise<RelayCounts>((resolve) => {
			child.once('message', (counts) => resolve(counts as RelayCounts));
			child.send(message);
		});
	return new Promise<Relay>((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`The relay printed no listening line within ${startTimeoutMs} ms`));
		}, startTimeoutMs);
		let stdout = '';
		// Piped, as asked above: `spawn` types a stdio array with 'ipc' loosely.
		const output = child.stdout as NodeJS.ReadableStream;
		output.setEncoding('utf8');
		output.on('data', (text: string) => {
			stdout += text;
			const match = /relay listening on (https:\/\/\S+)\r?\n/.exec(stdout);
			if (match === null) return;
			clearTimeout(timer);
			resolve({
				baseUrl: `${match[1]}/v1`,
				counts: () => ask('counts'),
				reset: () => ask('reset'),
				async stop() {
					if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
					await exited;
				},
			});
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`The relay exited (code ${code}) before it listened`));
		});
	});
}
