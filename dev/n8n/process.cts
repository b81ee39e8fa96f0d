/** Runs n8n's commands: `n8n start` and `n8n worker` as long-lived processes, the others (import, execute) to completion. */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface N8nProcess {
	/** Everything the process printed so far (stdout and stderr). */
	output(): string;
	/** Resolves when the process has exited, for whatever reason. */
	exited: Promise<void>;
	stop(): Promise<void>;
}

export interface StartOptions {
	/** `start` (main: editor, REST, webhooks) or `worker` (queue mode). */
	command: 'start' | 'worker';
	/** Resolves true once the process serves; polled every 250 ms. */
	ready: (output: string) => Promise<boolean> | boolean;
	/** Also written to this file as it comes. */
	logFile?: string;
}

/** The ids of the executions an `n8n worker` has started, or finished, by its log. */
export function workerExecutions(worker: N8nProcess, event: 'started' | 'finished'): string[] {
	return worker.output().match(new RegExp(`(?<=Worker ${event} execution )\\d+`, 'g')) ?? [];
}

/** How many executions an `n8n worker` has started, by its log. */
export function executionsStarted(worker: N8nProcess): number {
	return workerExecutions(worker, 'started').length;
}

/** n8n gets N8N_GRACEFUL_SHUTDOWN_TIMEOUT (env.cts) to stop; after this, its process group is killed. */
const STOP_TIMEOUT_MS = 20_000;
/** n8n boots in 15-20 s on 2 cores; more while other processes compete. */
const READY_TIMEOUT_MS = 120_000;

/** Spawns the command in its own process group (n8n starts a task runner child) and waits until it is ready. */
export async function startN8n(
	bin: string,
	env: NodeJS.ProcessEnv,
	options: StartOptions,
): Promise<N8nProcess> {
	const child = spawn(bin, [options.command], {
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const log =
		options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
	let output = '';
	for (const stream of [child.stdout, child.stderr]) {
		stream.setEncoding('utf8');
		stream.on('data', (text: string) => {
			output += text;
			log?.write(text);
		});
	}
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const running = () => child.exitCode === null && child.signalCode === null;
	const handle: N8nProcess = {
		output: () => output,
		exited,
		async stop() {
			if (running() && child.pid !== undefined) {
				process.kill(-child.pid, 'SIGTERM');
				const killed = setTimeout(
					() => process.kill(-(child.pid as number), 'SIGKILL'),
					STOP_TIMEOUT_MS,
				);
				await exited;
				clearTimeout(killed);
			}
			log?.end();
		},
	};

	try {
		await untilReady(options, handle, () =>
			running() ? undefined : `code ${child.exitCode}, signal ${child.signalCode}`,
		);
	} catch (error) {
		log?.end();
		throw error;
	}
	return handle;
}

/**
 * Waits until `options.ready` says the process serves; throws with the end of its output when it exits first
 * (`exited` says how, while it runs undefined) or is not ready within READY_TIMEOUT_MS (then it is stopped).
 */
export async function untilReady(
	options: Pick<StartOptions, 'command' | 'ready'>,
	handle: N8nProcess,
	exited: () => string | undefined,
): Promise<void> {
	const deadline = Date.now() + READY_TIMEOUT_MS;
	const isReady = async (): Promise<boolean> => {
		try {
			return await options.ready(handle.output());
		} catch {
			return false;
		}
	};
	while (!(await isReady())) {
		const how = exited();
		if (how !== undefined)
			throw new Error(
				`n8n ${options.command} exited (${how}) before it was ready:\n${tail(handle.output())}`,
			);
		if (Date.now() > deadline) {
			await handle.stop();
			throw new Error(
				`n8n ${options.command} was not ready within ${READY_TIMEOUT_MS} ms:\n${tail(handle.output())}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Ready once the editor's readiness endpoint answers 200 (published webhooks may take a moment more). */
export function httpReady(port: number): () => Promise<boolean> {
	return async () => (await fetch(`http://127.0.0.1:${port}/healthz/readiness`)).ok;
}

/** Runs an n8n CLI command to its end (each boots n8n: 5-11 s): whether it exited 0, and what it printed. */
export function n8nCommand(
	bin: string,
	env: NodeJS.ProcessEnv,
	args: string[],
): Promise<{ ok: boolean; output: string }> {
	return new Promise((resolve) => {
		execFile(bin, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
			resolve({ ok: error === null, output: `${stdout}${stderr}` }),
		);
	});
}

/** As n8nCommand, rejecting with the end of the output when the command fails. */
export async function runN8nCommand(
	bin: string,
	env: NodeJS.ProcessEnv,
	args: string[],
): Promise<string> {
	const { ok, output } = await n8nCommand(bin, env, args);
	if (!ok) throw new Error(`n8n ${args.join(' ')} failed:\n${tail(output)}`);
	return output;
}

export function tail(text: string, lines = 40): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}
