import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { keys, startService, type LocalService } from '../../support/service.cts';
import { chat, getModels, hello, send } from './client.cts';

const mainScript = join(__dirname, '..', '..', '..', 'dev', 'service', 'main.mts');

describe('request log', () => {
	let service: LocalService;
	beforeAll(async () => {
		service = await startService();
	});
	afterAll(() => service.stop());

	it('records every /v1 request as received, and clears', async () => {
		await service.clearRequests();
		await chat(service, keys.default, { model: 'echo-1', messages: hello });
		await send(`${service.baseUrl}/chat/completions`, {
			method: 'POST',
			headers: {
				Authorization: 'Bearer  sk-spaced',
				'Content-Type': 'text/plain',
				'X-Custom-Header': 'Some Value',
			},
			body: 'not json',
		});
		await getModels(service, keys.premium);
		await send(`${service.origin}/chat/completions`, { method: 'POST', body: '{}' });

		const requests = await service.requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /v1/chat/completions',
			'POST /v1/chat/completions',
			'GET /v1/models',
		]);
		expect(requests[0].body).toEqual({ model: 'echo-1', messages: hello });
		expect(requests[0].headers).toMatchObject({
			authorization: `Bearer ${keys.default}`,
			'content-type': 'application/json',
		});
		expect(requests[1].body).toBe('not json');
		expect(requests[1].headers).toMatchObject({
			authorization: 'Bearer  sk-spaced',
			'x-custom-header': 'Some Value',
		});
		expect(requests[2].body).toBeNull();

		await service.clearRequests();
		expect(await service.requests()).toEqual([]);
	});

	it('records how each request ended: answered, cancelled by the client, or cut by the service', async () => {
		await service.clearRequests();
		await chat(service, keys.default, { model: 'echo-1', messages: hello });
		await chat(service, keys.default, {
			model: 'echo-1',
			messages: hello,
			x_local: { reset: true },
		}).catch(() => undefined);
		const cancel = new AbortController();
		const cancelled = chat(
			service,
			keys.default,
			{ model: 'echo-1', messages: hello, x_local: { slow_ms: 30_000 } },
			cancel.signal,
		);
		cancelled.catch(() => undefined);
		// Cancelled once the service has it: the third request is in flight, not yet ended.
		let inFlight = await service.requests();
		while (inFlight.length < 3) inFlight = await service.requests();
		expect(inFlight[2].ended).toBeUndefined();
		cancel.abort();

		const requests = await service.endedRequests();
		expect(requests.map((request) => request.ended?.by)).toEqual(['answer', 'service', 'client']);
		for (const request of requests)
			expect(request.ended!.at).toBeGreaterThanOrEqual(request.receivedAt);
	});

	it('needs no auth and answers 404 for other control paths', async () => {
		expect((await send(`${service.origin}/__control/requests`)).status).toBe(200);
		expect((await send(`${service.origin}/__control/other`)).status).toBe(404);
	});
});

describe('--latency-ms', () => {
	it('delays every /v1 answer', async () => {
		const service = await startService({ args: ['--latency-ms', '300'] });
		try {
			const started = Date.now();
			const reply = await getModels(service, keys.default);
			expect(reply.status).toBe(200);
			expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		} finally {
			await service.stop();
		}
	});
});

describe('CLI', () => {
	function run(args: string[]) {
		const child = spawn(process.execPath, [mainScript, ...args], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const exit = new Promise<number | null>((resolve) =>
			child.once('exit', (code) => resolve(code)),
		);
		const listening = new Promise<string>((resolve) => {
			child.stdout.on('data', () => {
				if (stdout.includes('\n')) resolve(stdout);
			});
		});
		return { child, exit, listening, output: () => ({ stdout, stderr }) };
	}

	it('prints one listening line, nothing per request, and exits 0 on SIGTERM', async () => {
		const cli = run(['--port', '0', '--host', '127.0.0.1']);
		const line = await cli.listening;
		expect(line).toMatch(
			/^Chat Completions local service listening on http:\/\/127\.0\.0\.1:\d+\/v1\n$/,
		);
		const baseUrl = line.trim().split(' ').at(-1);
		const reply = await send(`${baseUrl}/models`, {
			headers: { Authorization: `Bearer ${keys.default}` },
		});
		expect(reply.status).toBe(200);
		cli.child.kill('SIGTERM');
		expect(await cli.exit).toBe(0);
		expect(cli.output().stdout).toBe(line);
	});

	it('logs requests to stderr with --verbose', async () => {
		const cli = run(['--port', '0', '--verbose']);
		const baseUrl = (await cli.listening).trim().split(' ').at(-1);
		await send(`${baseUrl}/models`);
		cli.child.kill('SIGINT');
		expect(await cli.exit).toBe(0);
		expect(cli.output().stderr).toMatch(/GET \/v1\/models 401 \d+ms/);
	});

	it('rejects bad options with a usage message', async () => {
		const cli = run(['--port', 'abc']);
		expect(await cli.exit).toBe(2);
		expect(cli.output().stderr).toMatch(/--port must be an integer[\s\S]*Usage: /);
	});

	it.each([
		[
			'limited=20/h',
			/--rate-limit limited=20\/h: expected <key name>=<requests>\/<window>\[,<in flight>\]\[@<style>\], e\.g\. limited=20\/s,8/,
		],
		['limited=0/s', /--rate-limit limited=0\/s must be \{ "requests": positive integer/],
		['nobody=20/s,8', /No key named nobody in the config/],
	])('rejects --rate-limit %s with a usage message', async (value, message) => {
		const cli = run(['--port', '0', '--rate-limit', value]);
		expect(await cli.exit).toBe(2);
		expect(cli.output().stderr).toMatch(message);
		expect(cli.output().stderr).toMatch(/Usage: .*--rate-limit/);
	});
});
