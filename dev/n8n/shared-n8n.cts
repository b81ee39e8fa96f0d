/**
 * One `n8n start` per jest worker, shared by the real-n8n test files that need no n8n of their own (not queue
 * mode, no environment variables of their own): the first such file a worker runs starts it on a copy of the
 * prepared user folder, and the worker's next files attach to it. Each file clears it first (every workflow,
 * with its executions, and every credential deleted, n8n Chat off: `N8nRest.clear`), so that it starts as on a
 * fresh n8n, with its webhook paths and workflow ids free. The process outlives the file that started it: it
 * writes straight into a log file (a file's `output()` reads what was written since it attached), and jest's
 * global teardown stops it (`stopSharedN8ns`). Starting n8n takes 7-22 s on 2 cores; a file that attaches
 * spends under a second.
 */
import { spawn } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdtempSync,
	openSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
	closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { n8nEnv } from './env.cts';
import { ownerWithHash } from './owner.cts';
import type { N8nProcess } from './process.cts';
import { httpReady, untilReady } from './process.cts';
import { closedPort } from '../service-client/local-service.cts';

/** The folder where each worker records its n8n: set by the global setup; unset, every file starts its own n8n. */
const FOLDER_VARIABLE = 'E2E_SHARED_N8N_FOLDER';

/** What a worker records of the n8n it started, for its next files and for the global teardown. */
interface Recorded {
	pid: number;
	port: number;
	brokerPort: number;
	userFolder: string;
	logFile: string;
}

export interface SharedN8n {
	port: number;
	/** The environment it runs with (for `n8n execute` beside it). */
	env: NodeJS.ProcessEnv;
	/** Its output since this file attached; `stop()` leaves it running. */
	main: N8nProcess;
}

/** Called by the global setup of n8n 2.x's tests (n8n 1.x's REST API cannot publish: each file starts its own). */
export function shareN8nPerWorker(): void {
	process.env[FOLDER_VARIABLE] = mkdtempSync(join(tmpdir(), 'chat-completions-shared-n8n-'));
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

function environment(bin: string, major: number, record: Recorded): NodeJS.ProcessEnv {
	return n8nEnv({
		userFolder: record.userFolder,
		port: record.port,
		brokerPort: record.brokerPort,
		owner: ownerWithHash(bin),
		n8nMajor: major,
	});
}

/** The output written to `logFile` from `offset` on. */
function since(logFile: string, offset: number): string {
	return readFileSync(logFile).subarray(offset).toString('utf8');
}

function attached(record: Recorded): N8nProcess {
	const offset = statSync(record.logFile).size;
	return {
		output: () => since(record.logFile, offset),
		exited: new Promise<void>(() => {}),
		stop: async () => {},
	};
}

async function start(bin: string, major: number, userFolderTemplate: string): Promise<Recorded> {
	const userFolder = mkdtempSync(join(tmpdir(), 'chat-completions-n8n-'));
	cpSync(userFolderTemplate, userFolder, { recursive: true });
	const record: Recorded = {
		pid: 0,
		port: await closedPort(),
		brokerPort: await closedPort(),
		userFolder,
		logFile: join(userFolder, 'n8n.log'),
	};
	const log = openSync(record.logFile, 'a');
	const child = spawn(bin, ['start'], {
		env: environment(bin, major, record),
		detached: true,
		stdio: ['ignore', log, log],
	});
	closeSync(log);
	child.unref();
	record.pid = child.pid as number;
	const handle = { ...attached({ ...record }), stop: async () => stopRecorded(record) };
	await untilReady({ command: 'start', ready: httpReady(record.port) }, handle, () =>
		alive(record.pid) ? undefined : 'its process is gone',
	);
	return record;
}

/**
 * The n8n this jest worker shares, started when it has none (or when the one it had is gone); undefined when the
 * global setup did not ask for sharing.
 */
export async function sharedN8n(
	bin: string,
	major: number,
	userFolderTemplate: string,
): Promise<SharedN8n | undefined> {
	const folder = process.env[FOLDER_VARIABLE];
	if (folder === undefined) return undefined;
	const file = join(folder, `worker-${process.env.JEST_WORKER_ID ?? '1'}.json`);
	let record = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Recorded) : undefined;
	if (record === undefined || !alive(record.pid)) {
		record = await start(bin, major, userFolderTemplate);
		writeFileSync(file, JSON.stringify(record));
	}
	return { port: record.port, env: environment(bin, major, record), main: attached(record) };
}

/** Ends a recorded n8n's process group (SIGTERM, then SIGKILL after 20 s) and removes its user folder. */
async function stopRecorded(record: Recorded): Promise<void> {
	const deadline = Date.now() + 20_000;
	const signal = (name: NodeJS.Signals) => {
		try {
			process.kill(-record.pid, name);
		} catch {
			// Gone already.
		}
	};
	signal('SIGTERM');
	while (alive(record.pid) && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 100));
	signal('SIGKILL');
	rmSync(record.userFolder, { recursive: true, force: true });
}

/** Jest's global teardown: stops every worker's n8n. */
export async function stopSharedN8ns(): Promise<void> {
	const folder = process.env[FOLDER_VARIABLE];
	if (folder === undefined) return;
	for (const name of readdirSync(folder))
		await stopRecorded(JSON.parse(readFileSync(join(folder, name), 'utf8')) as Recorded);
	rmSync(folder, { recursive: true, force: true });
}
