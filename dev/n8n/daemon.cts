/** A server program for the tests (Redis, PostgreSQL) run in the foreground until it says it is ready. */
import type { SpawnOptions } from 'node:child_process';
import { spawn } from 'node:child_process';

export interface Daemon {
	/** Ends it with `stopSignal` and resolves once it has exited. */
	stop(): Promise<void>;
}

/**
 * Spawns `program` and resolves once its output (stdout or stderr) contains `ready`; rejects with what it
 * printed when it exits first.
 */
export async function startDaemon(
	program: string,
	args: string[],
	{
		ready,
		stopSignal,
		spawnOptions,
	}: { ready: string; stopSignal: NodeJS.Signals; spawnOptions?: SpawnOptions },
): Promise<Daemon> {
	const child = spawn(program, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] });
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	let output = '';
	await new Promise<void>((resolve, reject) => {
		const read = (data: Buffer) => {
			output += data.toString();
			if (output.includes(ready)) resolve();
		};
		child.stdout?.on('data', read);
		child.stderr?.on('data', read);
		child.once('exit', (code) => reject(new Error(`${program} exited (code ${code}):\n${output}`)));
		child.once('error', reject);
	});
	return {
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill(stopSignal);
			await exited;
		},
	};
}
