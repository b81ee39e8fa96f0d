/** A throwaway Redis (Debian's redis-server) on a free loopback port, for queue mode. */
import type { Daemon } from './daemon.cts';
import { startDaemon } from './daemon.cts';
import { closedPort } from '../service-client/local-service.cts';

/** Starts Redis in beforeAll (before n8n: register this first) and stops it in afterAll; returns its port. */
export function useRedis(): () => number {
	let port: number | undefined;
	let redis: Daemon | undefined;
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
		redis = await startDaemon('redis-server', args, {
			ready: 'Ready to accept connections',
			stopSignal: 'SIGTERM',
		});
	});
	afterAll(async () => {
		await redis?.stop();
	});
	return () => {
		if (port === undefined) throw new Error('useRedis(): Redis starts in beforeAll');
		return port;
	};
}
