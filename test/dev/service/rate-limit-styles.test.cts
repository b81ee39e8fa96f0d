/**
 * The rate-limit styles of real gateways (`--rate-limit name=<requests>/<window>[,<in flight>]@<style>`): what
 * each says on its answers and its 429s, and how it counts, as a client meets them.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { keys, type LocalService } from '../../support/service.cts';
import { chat, hello, inFlightReaches, withService, type Reply } from './client.cts';

const echo = { model: 'echo-1', messages: hello };
const ask = (service: LocalService) => chat(service, keys.limited, echo);

const header = (reply: Reply, name: string) => reply.headers.get(name);

test('retry-after-ms: the 429 gives the exact wait in ms beside Retry-After in whole seconds; answers carry no x-ratelimit headers', async () => {
	await withService(['--rate-limit', 'limited=2/s@retry-after-ms'], async (service) => {
		const answers = [await ask(service), await ask(service)];
		const refused = await ask(service);
		expect(answers.map((reply) => header(reply, 'x-ratelimit-remaining-requests'))).toEqual([
			null,
			null,
		]);
		expect(refused.status).toBe(429);
		const ms = Number(header(refused, 'retry-after-ms'));
		expect(ms).toBeGreaterThan(0);
		expect(ms).toBeLessThanOrEqual(1000);
		expect(header(refused, 'retry-after')).toBe('1');
		await delay(ms);
		expect((await ask(service)).status).toBe(200);
	});
});

test('openai: a bucket that refills over the window; every answer says what is left and when it is full again (a Go duration); the 429 has no Retry-After', async () => {
	await withService(['--rate-limit', 'limited=4/2s@openai'], async (service) => {
		const first = await ask(service);
		expect(header(first, 'x-ratelimit-limit-requests')).toBe('4');
		expect(header(first, 'x-ratelimit-remaining-requests')).toBe('3');
		// One request taken from a bucket refilling 4 per 2 s: full again in about 500 ms.
		expect(header(first, 'x-ratelimit-reset-requests')).toMatch(/^(4\d\d|500)ms$/);
		await Promise.all([ask(service), ask(service), ask(service)]);
		const refused = await ask(service);
		expect(refused.status).toBe(429);
		expect(refused.json.error.code).toBe('rate_limit_exceeded');
		expect(header(refused, 'retry-after')).toBeNull();
		expect(header(refused, 'x-ratelimit-remaining-requests')).toBe('0');
		expect(header(refused, 'x-ratelimit-reset-requests')).toMatch(/^(1\.\d+s|2s|\d{3}ms)$/);
		// One request's worth refills in 500 ms.
		await delay(520);
		expect((await ask(service)).status).toBe(200);
	});
});

test('litellm: a fixed window, the reset in whole seconds on every answer and on the 429, which has no Retry-After', async () => {
	await withService(['--rate-limit', 'limited=2/2s@litellm'], async (service) => {
		const replies = [await ask(service), await ask(service), await ask(service)];
		const refused = replies.find((reply) => reply.status === 429) ?? (await ask(service));
		for (const reply of [...replies, refused]) {
			expect(header(reply, 'x-ratelimit-reset-requests')).toMatch(/^[12]$/);
		}
		expect(refused.status).toBe(429);
		expect(refused.json.error.message).toMatch(
			/^LiteLLM Rate Limit Handler for rate limit type = key/,
		);
		expect(header(refused, 'retry-after')).toBeNull();
		expect(header(refused, 'x-ratelimit-remaining-requests')).toBe('0');
	});
});

test('openrouter: only the 429 speaks, with the instant the window ends in epoch ms: a request before it is refused again, one after it answered', async () => {
	await withService(['--rate-limit', 'limited=2/2s@openrouter'], async (service) => {
		let reply = await ask(service);
		expect(header(reply, 'x-ratelimit-reset')).toBeNull();
		let asked = Date.now();
		while (reply.status === 200) {
			asked = Date.now();
			reply = await ask(service);
		}
		expect(reply.status).toBe(429);
		expect(header(reply, 'retry-after')).toBeNull();
		expect(header(reply, 'x-ratelimit-limit')).toBe('2');
		expect(header(reply, 'x-ratelimit-remaining')).toBe('0');
		const reset = Number(header(reply, 'x-ratelimit-reset'));
		expect(reset % 2000).toBe(0);
		// The window's end after the refused request was sent (measured from the send: the answer may come late).
		expect(reset - asked).toBeGreaterThan(0);
		expect(reset - asked).toBeLessThanOrEqual(2000);
		if (reset - Date.now() > 60) {
			expect((await ask(service)).status).toBe(429);
		}
		await delay(reset - Date.now() + 5);
		expect((await ask(service)).status).toBe(200);
	});
});

test("new-api: a window that counts refused requests too, in new-api's words (minutes), no Retry-After", async () => {
	await withService(['--rate-limit', 'limited=3/6s@new-api'], async (service) => {
		const started = Date.now();
		const answers = [await ask(service), await ask(service), await ask(service)];
		expect(answers.map((reply) => reply.status)).toEqual([200, 200, 200]);
		// A second later, three quick retries: each refused, and each counted.
		await delay(1000);
		const refused = [await ask(service), await ask(service), await ask(service)];
		const refusedAt = Date.now();
		expect(refused.map((reply) => reply.status)).toEqual([429, 429, 429]);
		expect(refused[0].json.error).toEqual({
			message: expect.stringMatching(
				/^您已达到总请求数限制：0\.1分钟内最多请求3次，包括失败次数，请检查您的请求是否正确 \(request id: \d+\)$/,
			),
			type: 'new_api_error',
			code: null,
		});
		expect(header(refused[0], 'retry-after')).toBeNull();
		// The answered three have left the window, the refused three fill it: refused again. (A window of 6 s
		// leaves room for a loaded machine on either side.)
		await delay(Math.max(0, started + 6200 - Date.now()));
		expect((await ask(service)).status).toBe(429);
		// A whole window after the refusals, the window is free again.
		await delay(Math.max(0, Math.max(started, refusedAt) + 6500 - Date.now()));
		expect((await ask(service)).status).toBe(200);
	});
}, 25_000);

test("new-api: a cap on requests in flight, refused in its words with the cap's number", async () => {
	await withService(
		['--rate-limit', 'limited=1000/s,2@new-api', '--latency-ms', '300'],
		async (service) => {
			const running = Promise.all([ask(service), ask(service)]);
			await inFlightReaches(service, 2);
			const refused = await ask(service);
			expect(refused.status).toBe(429);
			expect(refused.json.error).toEqual({
				message: expect.stringMatching(
					/^Too many requests in flight for token sk-exa\.\.\.ited: at most 2 in-flight requests are allowed \(request id: \d+\)$/,
				),
				type: 'new_api_error',
				code: null,
			});
			expect((await running).map((reply) => reply.status)).toEqual([200, 200]);
		},
	);
});
