/**
 * A real n8n for one test file, from the user folder prepared once for the run (the packed package installed as
 * n8n installs community packages, n8n's database migrated): the jest worker's shared n8n (shared-n8n.cts),
 * cleared, or, for queue mode (with `n8n worker`s) and environment variables of the file's own, an `n8n start` of
 * its own on a copy of that folder. Credentials and workflows are created and the webhook workflows published, as
 * the owner, through the REST API. n8n 1.x, whose REST API cannot publish, gets them with its CLI before it starts:
 * imported, and the webhook workflows activated.
 */
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { installPackage } from './community-package.cts';
import { executeWorkflow } from './execute.cts';
import type { ExecuteResult } from './execute.cts';
import { n8nEnv } from './env.cts';
import type { CredentialToImport, WorkflowToImport } from './import.cts';
import { importIntoN8n, importThroughRest } from './import.cts';
import { OWNER, ownerWithHash } from './owner.cts';
import type { Postgres } from './postgres.cts';
import { startPostgres } from './postgres.cts';
import type { N8nProcess } from './process.cts';
import { httpReady, runN8nCommand, startN8n, tail } from './process.cts';
import { closedPort } from '../service-client/local-service.cts';
import { N8nRest } from './rest.cts';
import { sharedN8n } from './shared-n8n.cts';

export interface RealN8nSetup {
	credentials: CredentialToImport[];
	workflows: WorkflowToImport[];
	/**
	 * Queue mode: the main instance enqueues in this Redis, an `n8n worker` runs the executions, and n8n's
	 * database is a PostgreSQL of its own (n8n supports queue mode on PostgreSQL only).
	 */
	redisPort?: number;
	/** Queue mode: how many `n8n worker` processes (1 unless given), each on its own ports. */
	workers?: number;
	/** More environment variables for n8n, e.g. a proxy or its SSRF protection. */
	env?: Record<string, string>;
	/**
	 * An n8n of the file's own, not the worker's shared one: the bench's AI Agent turn measured 3-7% slower (both
	 * models alike: 67-72 ms against 56-57 ms) on the shared n8n.
	 */
	own?: true;
}

export interface RealN8n {
	/** http://127.0.0.1:PORT */
	url: string;
	/** POSTs JSON to a production webhook: /webhook/<path>; `signal` gives up waiting for its answer. */
	webhook(path: string, body?: unknown, signal?: AbortSignal): Promise<Response>;
	/** POSTs JSON to the webhook and reads the JSON it answers; an error status throws, with n8n's logs. */
	answer(path: string, body?: unknown): Promise<Record<string, unknown>>;
	/** The id n8n gave the credential set up with this id (n8n 2.x gives its own; n8n 1.x keeps it). */
	credentialId(id: string): string;
	/** `n8n execute --id`: runs an imported workflow that starts with a manual trigger, beside the running n8n. */
	execute(id: string): Promise<ExecuteResult>;
	main: N8nProcess;
	/** `n8n worker`, in queue mode (the first, when there are several). */
	worker?: N8nProcess;
	/** Every `n8n worker`, in queue mode (none otherwise). */
	workers: N8nProcess[];
	/** The end of what n8n printed (main, then worker): for failure messages. */
	logs(): string;
}

function required(name: string): string {
	const value = process.env[name];
	if (!value)
		throw new Error(
			`${name} is not set: the real-n8n tests run through jest's globalSetup (npm test)`,
		);
	return value;
}

/** The major version of the n8n the binary belongs to (`node_modules/n8n/bin/n8n`). */
function n8nMajor(bin: string): number {
	const manifest = join(dirname(dirname(realpathSync(bin))), 'package.json');
	return Number(
		(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version.split('.')[0],
	);
}

function webhookPath(workflow: WorkflowToImport): string | undefined {
	const nodes = workflow.nodes as Array<{ type: string; parameters: { path?: string } }>;
	return nodes.find((node) => node.type === 'n8n-nodes-base.webhook')?.parameters.path;
}

/**
 * Waits until n8n serves the POST webhook at `path`: publishing returns (and in queue mode readiness
 * answers) before the webhook is live. A GET tells without running the workflow: n8n answers "not
 * registered for GET requests" once the POST webhook exists, "not registered" before.
 */
async function webhookLive(url: string, path: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const text = await (await fetch(`${url}/webhook/${path}`)).text();
		if (text.includes('not registered for GET requests')) return;
		if (Date.now() > deadline)
			throw new Error(`The webhook /webhook/${path} did not go live within 60 s: ${text}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * The user folder every test file's n8n starts from (a copy each): the tarball installed into `folder` and
 * n8n's database migrated there (`n8n list:workflow`, which boots the database), as each file's first n8n
 * command did on a fresh folder. Queue mode's PostgreSQL is migrated by its own `n8n start`.
 */
export async function prepareUserFolder(
	bin: string,
	tarball: string,
	folder: string,
): Promise<void> {
	rmSync(folder, { recursive: true, force: true });
	installPackage(tarball, folder);
	const env = n8nEnv({
		userFolder: folder,
		port: await closedPort(),
		brokerPort: await closedPort(),
		owner: ownerWithHash(bin),
		n8nMajor: n8nMajor(bin),
	});
	await runN8nCommand(bin, env, ['list:workflow']);
}

/** Gives the file its n8n in beforeAll (one of its own is stopped in afterAll); `setup` runs in beforeAll (after the local service started). */
export function useRealN8n(setup: () => RealN8nSetup): () => RealN8n {
	let instance: RealN8n | undefined;
	const processes: N8nProcess[] = [];
	let userFolder: string | undefined;
	let database: Postgres | undefined;

	/** n8n of this file's own (queue mode, its own environment variables, n8n 1.x): started, and stopped in afterAll. */
	async function ownN8n(
		bin: string,
		major: number,
		{ credentials, workflows, redisPort, workers: workerCount = 1, env: more }: RealN8nSetup,
	): Promise<{ port: number; env: NodeJS.ProcessEnv; main: N8nProcess; workers: N8nProcess[] }> {
		userFolder = mkdtempSync(join(tmpdir(), 'chat-completions-n8n-'));
		cpSync(required('E2E_N8N_USER_FOLDER'), userFolder, { recursive: true });
		const port = await closedPort();
		if (redisPort !== undefined) database = await startPostgres();
		const queue: Record<string, string> =
			redisPort === undefined
				? {}
				: {
						...database?.env,
						EXECUTIONS_MODE: 'queue',
						QUEUE_BULL_REDIS_HOST: '127.0.0.1',
						QUEUE_BULL_REDIS_PORT: String(redisPort),
						// n8n waits for a queued execution with Bull's job.finished(), which listens only once the job
						// is enqueued and its start saved; by default a finished job leaves Redis at once, so a job a
						// worker finishes in that gap is never seen finished and its webhook never answers (n8n issue
						// #30392, Bull #1906; 1 of 200 executions here on a busy machine). Kept jobs are found by
						// job.finished()'s 5 s watchdog.
						N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '1000',
						N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED: '1000',
					};
		const env = n8nEnv({
			userFolder,
			port,
			brokerPort: await closedPort(),
			owner: ownerWithHash(bin),
			extra: { ...queue, ...more },
			n8nMajor: major,
		});
		if (major < 2) {
			await importIntoN8n(bin, env, { credentials, workflows });
			for (const workflow of workflows.filter((each) => webhookPath(each) !== undefined)) {
				await runN8nCommand(bin, env, ['update:workflow', `--id=${workflow.id}`, '--active=true']);
			}
		}
		const main = await startN8n(bin, env, { command: 'start', ready: httpReady(port) });
		processes.push(main);
		const workers: N8nProcess[] = [];
		if (redisPort !== undefined) {
			// Each worker runs its own task runner broker: a port of its own.
			const ready = (output: string) => output.includes('n8n worker is now ready');
			for (let index = 0; index < workerCount; index++) {
				const workerEnv = { ...env, N8N_RUNNERS_BROKER_PORT: String(await closedPort()) };
				const worker = await startN8n(bin, workerEnv, { command: 'worker', ready });
				workers.push(worker);
				processes.push(worker);
			}
		}
		return { port, env, main, workers };
	}

	beforeAll(async () => {
		const bin = required('E2E_N8N_BIN');
		const major = n8nMajor(bin);
		const given = setup();
		const { credentials, workflows } = given;
		const legacy = major < 2;
		// Queue mode, environment variables of its own and `own` get an n8n of the file's own; else the worker's.
		const shared =
			legacy || given.redisPort !== undefined || given.env !== undefined || given.own
				? undefined
				: await sharedN8n(bin, major, required('E2E_N8N_USER_FOLDER'));
		const { port, env, main, workers } = shared
			? { ...shared, workers: [] }
			: await ownN8n(bin, major, given);
		if (shared) processes.push(main);
		const webhookWorkflows = workflows.filter((workflow) => webhookPath(workflow) !== undefined);
		const [worker] = workers;
		const url = `http://127.0.0.1:${port}`;
		const rest = legacy ? undefined : await N8nRest.login(url, OWNER);
		// What the worker's earlier file left: gone before this file's credentials and workflows come.
		if (shared) await rest?.clear();
		const credentialIds =
			rest === undefined
				? new Map<string, string>()
				: await importThroughRest(rest, { credentials, workflows });
		for (const workflow of webhookWorkflows) {
			await rest?.publish(workflow.id);
			await webhookLive(url, webhookPath(workflow) as string);
		}
		const webhook = (path: string, body?: unknown, signal?: AbortSignal) =>
			fetch(`${url}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body ?? {}),
				signal,
			});
		const logs = () => processes.map((process) => tail(process.output(), 60)).join('\n---\n');
		instance = {
			url,
			main,
			worker,
			workers,
			webhook,
			async answer(path, body) {
				const response = await webhook(path, body);
				const text = await response.text();
				if (!response.ok)
					throw new Error(`POST /webhook/${path} answered ${response.status}: ${text}\n${logs()}`);
				return JSON.parse(text) as Record<string, unknown>;
			},
			credentialId: (id) => credentialIds.get(id) ?? id,
			execute: (id) => executeWorkflow(bin, env, id),
			logs,
		};
	}, 300_000);

	afterAll(async () => {
		for (const process of processes.reverse()) await process.stop();
		await database?.stop();
		if (userFolder !== undefined) rmSync(userFolder, { recursive: true, force: true });
	});

	return () => {
		if (instance === undefined) throw new Error('useRealN8n(): n8n starts in beforeAll');
		return instance;
	};
}
