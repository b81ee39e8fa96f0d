/**
 * The Portkey AI Gateway (`@portkey-ai/gateway`, a dev dependency) as a jest test file's gateway: a child
 * process on a free port of 127.0.0.1 (`portkey-loopback.mjs`), in front of the local service. A credential
 * reaches the service through it with the Extra Headers a Portkey user sets: `x-portkey-provider: openai` and
 * `x-portkey-custom-host` the service's Base URL. Portkey forwards only the OpenAI fields it knows, so the
 * local service's test knobs go as its `x-local-knobs` header, named in `x-portkey-forward-headers`.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import type { LocalService } from './service.cts';

export interface Portkey {
	/** http://127.0.0.1:PORT/v1, the credential's Base URL. */
	baseUrl: string;
	stop(): Promise<void>;
}

const gatewayScript = join(
	dirname(require.resolve('@portkey-ai/gateway/package.json')),
	'build',
	'start-server.js',
);
const loopback = join(__dirname, 'portkey-loopback.mjs');
const startTimeoutMs = 20_000;

/** Spawns Portkey on a free loopback port; resolves once it listens. */
export function startPortkey(): Promise<Portkey> {
	const child = spawn(
		process.execPath,
		['--import', loopback, gatewayScript, '--port=0', '--headless'],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => (stderr += text));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	return new Promise<Portkey>((resolve, reject) => {
		const fail = (reason: string): void => {
			clearTimeout(timer);
			child.kill('SIGKILL');
			reject(new Error(`Portkey did not start: ${reason}\nstderr:\n${stderr || '(empty)'}`));
		};
		const timer = setTimeout(
			() => fail(`not listening within ${startTimeoutMs} ms`),
			startTimeoutMs,
		);
		child.once('error', (error) => fail(error.message));
		const onEarlyExit = (code: number | null): void => fail(`process exited (code ${code})`);
		child.once('exit', onEarlyExit);
		child.stdout.on('data', (text: string) => {
			stdout += text;
			const match = /portkey listening on (\S+):(\d+)\n/.exec(stdout);
			if (match === null) return;
			if (match[1] !== '127.0.0.1') return fail(`it listens on ${match[1]}, not on 127.0.0.1 only`);
			clearTimeout(timer);
			child.off('exit', onEarlyExit);
			resolve({
				baseUrl: `http://127.0.0.1:${match[2]}/v1`,
				async stop() {
					if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
					await exited;
				},
			});
		});
	});
}

/** The Extra Headers that route a request through Portkey to `upstream` (a Base URL); `knobs` the local service's test knobs. */
export function portkeyHeaders(upstream: string, knobs?: IDataObject): Record<string, string> {
	return {
		'x-portkey-provider': 'openai',
		'x-portkey-custom-host': upstream,
		...(knobs === undefined
			? {}
			: { 'x-portkey-forward-headers': 'x-local-knobs', 'x-local-knobs': JSON.stringify(knobs) }),
	};
}

/** For a test file: Portkey in front of the file's local service (`useLocalService`), for all its tests. */
export function usePortkey(service: () => LocalService): {
	/** Portkey's Base URL, for the credential. */
	baseUrl: () => string;
	/** The credential's Extra Headers through Portkey to the service; `knobs` the service's test knobs. */
	credential: (knobs?: IDataObject) => { extraHeaders: string };
} {
	let portkey: Portkey | undefined;
	beforeAll(async () => {
		portkey = await startPortkey();
	}, startTimeoutMs + 5_000);
	afterAll(async () => {
		await portkey?.stop();
	});
	return {
		baseUrl: () => {
			if (portkey === undefined) throw new Error('usePortkey(): Portkey starts in beforeAll');
			return portkey.baseUrl;
		},
		credential: (knobs) => ({
			extraHeaders: JSON.stringify(portkeyHeaders(service().baseUrl, knobs)),
		}),
	};
}
