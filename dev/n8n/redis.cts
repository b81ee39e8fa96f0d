/** A throwaway Redis (Debian's redis-server) on a free loopback port, for queue mode. */
import { spawn } from 'node:child_process';

import { closedPort } from '../service-client/local-service.cts';

/** Starts Redis in beforeAll (before n8n: register this first) and stops it in afterAll; returns its port. */
export function useRedis(): () => number {
	let port: number | undefined;
	let stop: (() => Promise<void>) | undefined;
	beforeAll(async () => {
		port = await closedPort();
		const args = [
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
		];
		const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		stop = async () => {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		};
		await new Promise<void>((resolve, reject) => {
			child.stdout.on('data', (data: Buffer) => {
				output += data.toString();
				if (output.includes('Ready to accept connections')) resolve();
			});
			child.once('exit', (code) =>
				reject(new Error(`redis-server exited (code ${code}):\n${output}`)),
			);
			child.once('error', reject);
		});
	});
	afterAll(async () => {
		await stop?.();
	});
	return () => {
		if (port === undefined) throw new Error('useRedis(): Redis starts in beforeAll');
		return port;
	};
}
