/**
 * Starts the local Chat Completions service (dev/service/main.mts) as a child process; the keys and fault
 * models of its config. Shared by the tests (through their jest helper useLocalService), `npm run try`
 * and `npm run bench`.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { TrafficReport } from '../service/rate-limit.mts';
import type { RecordedRequest } from '../service/request-log.mts';
import type { VideoReport } from '../service/video/jobs.mts';

export type { EndedBy, RecordedRequest } from '../service/request-log.mts';
export type { TrafficReport, VideoReport };

export interface LocalService {
	/** http://127.0.0.1:PORT/v1 */
	baseUrl: string;
	/** http://127.0.0.1:PORT */
	origin: string;
	/** Every request the service received on /v1 since start or the last clearRequests(). */
	requests(): Promise<RecordedRequest[]>;
	/**
	 * The same, once each has ended (answered, or closed by the client or the service), polling for at most
	 * `maxWaitMs`: a request a client cancelled reaches the service, and its end is seen, a moment after the
	 * client gave up on it. Requests still in flight then come back without `ended`.
	 */
	endedRequests(maxWaitMs?: number): Promise<RecordedRequest[]>;
	/** What each key went through since start or the last clearRequests() (its limit, 429s, in flight), by key name. */
	traffic(): Promise<Record<string, TrafficReport>>;
	/** The video jobs since start or the last clearRequests(): the submits counted, and each job's polls and downloads. */
	videoJobs(): Promise<VideoReport>;
	/** Clears the request log, the knob counts, the rate limits' windows and the traffic counts. */
	clearRequests(): Promise<void>;
	/** Every connection open now is closed as the client sends its next request on it (an idle close). */
	idleClose(): Promise<void>;
	stop(): Promise<void>;
}

const serviceDir = join(__dirname, '..', 'service');
const mainScript = join(serviceDir, 'main.mts');
const startTimeoutMs = 15_000;

type KeyName =
	| 'default'
	| 'premium'
	| 'rag'
	| 'media'
	| 'routes'
	| 'catalogue'
	| 'video-openai'
	| 'video-openrouter'
	| 'video-newapi'
	| 'expired'
	| 'ratelimited'
	| 'limited'
	| 'broke'
	| 'faults'
	| 'fallback';

function readKeys(): Record<KeyName, string> {
	const config = JSON.parse(readFileSync(join(serviceDir, 'config.json'), 'utf8')) as {
		keys: Array<{ name: string; key: string }>;
	};
	const find = (name: KeyName): string => {
		const entry = config.keys.find((candidate) => candidate.name === name);
		if (entry === undefined) throw new Error(`dev/service/config.json has no key named '${name}'`);
		return entry.key;
	};
	return {
		default: find('default'),
		premium: find('premium'),
		rag: find('rag'),
		media: find('media'),
		routes: find('routes'),
		catalogue: find('catalogue'),
		'video-openai': find('video-openai'),
		'video-openrouter': find('video-openrouter'),
		'video-newapi': find('video-newapi'),
		expired: find('expired'),
		ratelimited: find('ratelimited'),
		limited: find('limited'),
		broke: find('broke'),
		faults: find('faults'),
		fallback: find('fallback'),
	};
}

/** The API keys of dev/service/config.json, by name. */
export const keys: Record<KeyName, string> = readKeys();

/** The fault models of dev/service/config.json: the `faults` group but echo-1, each answering like a misbehaving gateway. */
export const faultModels: string[] = (
	JSON.parse(readFileSync(join(serviceDir, 'config.json'), 'utf8')) as {
		groups: { faults: string[] };
	}
).groups.faults.filter((model) => model.startsWith('fault-'));

/** Spawns the service on a free port and resolves once it prints its listening line. */
export function startService(options: { args?: string[] } = {}): Promise<LocalService> {
	const child = spawn(process.execPath, [mainScript, '--port', '0', ...(options.args ?? [])], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => {
		stderr += text;
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

	return new Promise<LocalService>((resolve, reject) => {
		const fail = (reason: string): void => {
			clearTimeout(timer);
			child.kill('SIGKILL');
			reject(new Error(`Local service did not start: ${reason}\nstderr:\n${stderr || '(empty)'}`));
		};
		const timer = setTimeout(
			() => fail(`no listening line within ${startTimeoutMs} ms`),
			startTimeoutMs,
		);
		child.once('error', (error) => fail(error.message));
		const onEarlyExit = (code: number | null, signal: string | null): void =>
			fail(`process exited (code ${code}, signal ${signal})`);
		child.once('exit', onEarlyExit);
		child.stdout.on('data', (text: string) => {
			stdout += text;
			const match = /listening on (http:\/\/\S+)\/v1\r?\n/.exec(stdout);
			if (match === null) return;
			clearTimeout(timer);
			child.off('exit', onEarlyExit);
			const origin = match[1];
			resolve({
				baseUrl: `${origin}/v1`,
				origin,
				requests: () => control<RecordedRequest[]>(origin, 'requests'),
				endedRequests: (maxWaitMs = 15_000) => endedRequests(origin, maxWaitMs),
				traffic: () => control<Record<string, TrafficReport>>(origin, 'traffic'),
				videoJobs: () => control<VideoReport>(origin, 'videos'),
				async clearRequests() {
					const response = await fetch(`${origin}/__control/requests`, { method: 'DELETE' });
					if (!response.ok) {
						throw new Error(`DELETE /__control/requests answered ${response.status}`);
					}
				},
				async idleClose() {
					const response = await fetch(`${origin}/__control/idle-close`, { method: 'POST' });
					if (!response.ok)
						throw new Error(`POST /__control/idle-close answered ${response.status}`);
				},
				async stop() {
					if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
					await exited;
				},
			});
		});
	});
}

/** GET /__control/<path> of the service at `origin`, as JSON. */
async function control<T>(origin: string, path: string): Promise<T> {
	const response = await fetch(`${origin}/__control/${path}`);
	if (!response.ok) throw new Error(`GET /__control/${path} answered ${response.status}`);
	return (await response.json()) as T;
}

const POLL_MS = 50;

async function endedRequests(origin: string, maxWaitMs: number): Promise<RecordedRequest[]> {
	const until = Date.now() + maxWaitMs;
	for (;;) {
		const requests = await control<RecordedRequest[]>(origin, 'requests');
		if (requests.every((request) => request.ended !== undefined) || Date.now() >= until) {
			return requests;
		}
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
}

/**
 * Whether the local service answers at `origin` (one another `npm run try` or `npm run service` started): its
 * model list for the default key holds `echo-1`.
 */
export async function isLocalService(origin: string): Promise<boolean> {
	try {
		const response = await fetch(`${origin}/v1/models`, {
			headers: { authorization: `Bearer ${keys.default}` },
			signal: AbortSignal.timeout(2_000),
		});
		const list = (await response.json()) as { data?: Array<{ id?: unknown }> };
		return response.ok && list.data?.some((model) => model.id === 'echo-1') === true;
	} catch {
		return false;
	}
}

/** A loopback port with nothing listening on it, for "connection refused" tests. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
