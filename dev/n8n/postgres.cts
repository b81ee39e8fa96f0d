/**
 * A throwaway PostgreSQL cluster (Debian's postgresql) on a free loopback port: n8n's database in queue mode,
 * where n8n supports only PostgreSQL ("Scaling mode is not officially supported with sqlite"): with SQLite,
 * main and workers write one file and a write that meets another's lock fails at once.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startDaemon } from './daemon.cts';
import { closedPort } from '../service-client/local-service.cts';

export interface Postgres {
	/** n8n's environment variables for this database. */
	env: Record<string, string>;
	stop(): Promise<void>;
}

const VERSIONS = '/usr/lib/postgresql';
const USER = 'n8n';

/** The newest installed server's programs (Debian keeps them out of PATH). */
function programs(): string {
	const versions = existsSync(VERSIONS)
		? readdirSync(VERSIONS).sort((a, b) => Number(b) - Number(a))
		: [];
	if (versions.length === 0)
		throw new Error(
			`PostgreSQL is not installed (no ${VERSIONS}): bash scripts/n8n/apt-install.sh postgresql`,
		);
	return join(VERSIONS, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: then its programs run as Debian's `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const [uid, gid] = ['-u', '-g'].map((flag) =>
		Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()),
	);
	return { uid, gid };
}

/** Starts a new cluster (trust on loopback, no fsync: nothing in it outlives the test) and waits until it takes connections. */
export async function startPostgres(): Promise<Postgres> {
	const bin = programs();
	const user = runAs();
	const dataDir = mkdtempSync(join(tmpdir(), 'chat-completions-postgres-'));
	if (user !== undefined) chownSync(dataDir, user.uid, user.gid);
	execFileSync(
		join(bin, 'initdb'),
		['-D', dataDir, '-U', USER, '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
		{ ...user, stdio: ['ignore', 'ignore', 'pipe'] },
	);
	const port = await closedPort();
	const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off'];
	const server = await startDaemon(
		join(bin, 'postgres'),
		['-D', dataDir, '-p', String(port), '-k', dataDir, ...settings.flatMap((s) => ['-c', s])],
		// SIGINT: PostgreSQL's fast shutdown (clients disconnected, no checkpoint to wait for).
		{ ready: 'ready to accept connections', stopSignal: 'SIGINT', spawnOptions: user },
	);
	return {
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'postgres',
			DB_POSTGRESDB_USER: USER,
		},
		async stop() {
			await server.stop();
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}
