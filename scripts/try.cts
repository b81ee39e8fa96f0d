/**
 * "Try it" (npm run try; scripts/try.sh installed Node 24 and n8n first): installs this package into a
 * real n8n as n8n installs community packages, starts the local service, imports the credential and the
 * example workflows (the n8n Chat example published), runs the chat example headless and prints the reply,
 * then serves n8n on http://localhost:5678 (or the port of --port) with n8n Chat switched on until Ctrl+C.
 * With --exit it stops after printing the reply. A local service already running (another try's) is used as it is.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

import {
	installedPackageDir,
	installPackage,
	packPackage,
	sourceDigest,
} from '../dev/n8n/community-package.cts';
import { n8nEnv } from '../dev/n8n/env.cts';
import { EXAMPLES_ORIGIN, exampleCredentials, readExamples } from '../dev/n8n/examples.cts';
import { executeWorkflow } from '../dev/n8n/execute.cts';
import { importIntoN8n } from '../dev/n8n/import.cts';
import { OWNER, ownerWithHash } from '../dev/n8n/owner.cts';
import { credentialLines } from '../dev/n8n/try-credentials.cts';
import { portArgument } from '../dev/n8n/try-port.cts';
import type { N8nProcess } from '../dev/n8n/process.cts';
import { httpReady, runN8nCommand, startN8n } from '../dev/n8n/process.cts';
import { N8nRest } from '../dev/n8n/rest.cts';
import type { LocalService } from '../dev/service-client/local-service.cts';
import { isLocalService, keys, startService } from '../dev/service-client/local-service.cts';

/** n8n's port: 5678, or `--port N` (its task runner broker takes the next port). */
const DEFAULT_PORT = 5678;
const PORT = portArgument(process.argv) ?? DEFAULT_PORT;
const BROKER_PORT = PORT + 1;
const SERVICE_PORT = Number(new URL(EXAMPLES_ORIGIN).port);
const CHAT_EXAMPLE = 'example-chat';
/** The example n8n Chat lists once it is published. */
const N8N_CHAT_EXAMPLE = 'example-n8n-chat-agent';

const started = Number(process.env.TRY_STARTED_MS ?? Date.now());
const exitAfterRun = process.argv.includes('--exit');
const bin = required('N8N_BIN');
const tryDir = required('TRY_DIR');
const userFolder = join(tryDir, 'n8n-user');

function required(name: string): string {
	const value = process.env[name];
	if (!value) throw new Error(`${name} is not set: run this through npm run try`);
	return value;
}

const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
const step = (text: string) => console.log(`\n== ${text}`);

async function main(): Promise<void> {
	for (const [port, what] of [
		[PORT, 'n8n'],
		[BROKER_PORT, "n8n's task runner broker"],
	] as const) {
		if (await inUse(port)) {
			throw new Error(
				`Port ${port} (${what}) is in use: another "npm run try" or n8n is running. Stop it (Ctrl+C in its terminal) and run again, or give this n8n other ports: npm run try -- --port 5700.`,
			);
		}
	}
	// The example credential names the service's port: another try's service there is used, anything else refused.
	const serviceRunning = await inUse(SERVICE_PORT);
	if (serviceRunning && !(await isLocalService(EXAMPLES_ORIGIN))) {
		throw new Error(
			`Port ${SERVICE_PORT} (the local service) is in use by a program that is not the local service. Stop it and run again: the example credential names ${EXAMPLES_ORIGIN}/v1.`,
		);
	}
	mkdirSync(userFolder, { recursive: true });

	step(
		'Chat Completion node: build, npm pack, install the tarball as n8n installs community packages',
	);
	// Built and installed again only when a source changed: a second try beside a running one keeps its package.
	const sources = sourceDigest();
	const installedSources = join(userFolder, 'package-source.sha256');
	const packageDir = installedPackageDir(userFolder);
	if (readText(installedSources) === sources && existsSync(packageDir)) {
		console.log(`unchanged since the last run: ${packageDir} kept (not built again)`);
	} else {
		const tarball = packPackage(join(tryDir, 'pack'));
		console.log(
			`installed ${tarball}\n       in ${installPackage(tarball, userFolder)} (production install)`,
		);
		writeFileSync(installedSources, sources);
	}

	step(`Local Chat Completions service on ${EXAMPLES_ORIGIN}/v1`);
	let service: LocalService | undefined;
	if (serviceRunning) {
		console.log(
			'already running (another "npm run try" or "npm run service" started it): used as it is; it stops with that run',
		);
	} else {
		service = await startService({ args: ['--port', String(SERVICE_PORT)] });
		console.log(`listening (API key ${keys.default}; models and keys: dev/service/config.json)`);
	}
	let n8n: N8nProcess | undefined;
	const stop = async () => {
		await n8n?.stop();
		await service?.stop();
	};
	try {
		const env = n8nEnv({
			userFolder,
			port: PORT,
			brokerPort: BROKER_PORT,
			owner: ownerWithHash(bin),
		});
		const examples = readExamples();

		step('Credential and example workflows');
		// Imported once (and again when examples/ change), so that the user's edits survive the next run.
		const imports = {
			credentials: exampleCredentials(keys),
			workflows: examples.map(({ workflow }) => workflow),
		};
		const digest = createHash('sha256').update(JSON.stringify(imports)).digest('hex');
		const marker = join(userFolder, 'imported.sha256');
		if (readText(marker) === digest) {
			console.log('already imported (delete the folder below to start afresh)');
		} else {
			const importStarted = Date.now();
			await importIntoN8n(bin, env, imports);
			await runN8nCommand(bin, env, ['publish:workflow', `--id=${N8N_CHAT_EXAMPLE}`]);
			writeFileSync(marker, digest);
			console.log(
				`imported with n8n import:credentials and n8n import:workflow, ${N8N_CHAT_EXAMPLE} published, in ${Math.round((Date.now() - importStarted) / 1000)} s (${seconds()} after npm run try)`,
			);
		}

		step('Run "Chat Completion: ask a question" headless (n8n execute)');
		const run = await executeWorkflow(bin, env, CHAT_EXAMPLE);
		if (run.error !== undefined) {
			throw new Error(
				`The chat example failed: ${run.error.message}\n${run.error.description ?? ''}`,
			);
		}
		const reply = run.runData['Chat Completion']?.[0]?.data?.main[0]?.[0]?.json ?? {};
		const usage = reply.usage as { total_tokens?: number } | undefined;
		console.log(
			`Reply (${String(reply.model)}, ${usage?.total_tokens} tokens): ${String(reply.content)}`,
		);
		if (exitAfterRun) {
			console.log(`\nDone in ${seconds()} (--exit: n8n not started).`);
			return;
		}

		step(`n8n on http://localhost:${PORT}`);
		// An n8n on another port beside the first writes a log of its own.
		const logFile = join(tryDir, PORT === DEFAULT_PORT ? 'n8n.log' : `n8n-${PORT}.log`);
		n8n = await startN8n(bin, env, { command: 'start', ready: httpReady(PORT), logFile });
		await (await N8nRest.login(`http://127.0.0.1:${PORT}`, OWNER)).setChat(true);
		console.log(`
n8n is ready at http://localhost:${PORT} (${seconds()} after npm run try)
  Log in:      ${OWNER.email} / ${OWNER.password}
  Credentials:
${credentialLines(imports.credentials, imports.workflows)
	.map((line) => `    ${line}`)
	.join('\n')}
  Workflows:
${examples.map(({ workflow }) => `    http://localhost:${PORT}/workflow/${workflow.id}  ${workflow.name}`).join('\n')}
  n8n Chat:    http://localhost:${PORT}/home/chat  (switched on)
  n8n's data:  ${userFolder}
  n8n's log:   ${logFile}
Press Ctrl+C to stop n8n${service === undefined ? ' (the local service stops with the run that started it)' : ' and the local service'}.`);
		const exited = n8n.exited.then(() => {
			throw new Error(`n8n stopped by itself; its log: ${logFile}`);
		});
		await Promise.race([untilSignal(), exited]);
		console.log(`\nStopping n8n${service === undefined ? '' : ' and the local service'}...`);
	} finally {
		await stop();
	}
}

function readText(path: string): string | undefined {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}
}

function inUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Resolves on the first Ctrl+C (or SIGTERM); later ones (npm passes Ctrl+C on too) wait for the clean stop. */
function untilSignal(): Promise<void> {
	return new Promise((resolve) => {
		for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => resolve());
	});
}

main().catch((error: unknown) => {
	console.error(`\n${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
});
