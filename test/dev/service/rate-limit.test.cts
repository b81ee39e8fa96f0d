/**
 * The rate-limited mode: per key, requests started per window AND requests in flight, as a gateway
 * limits them; 429 with a fractional Retry-After until the next slot; x-ratelimit-* headers; the counts
 * on GET /__control/traffic. Timing is asserted from timestamps taken around each request.
 */
import { request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { keys, type LocalService } from '../../support/service.cts';
import { chat, getModels, hello, inFlightReaches, withService, type Reply } from './client.cts';

const echo = { model: 'echo-1', messages: hello };
/** Client and service clocks are read in different processes: a few ms apart at most. */
const clockSlackMs = 5;

/** A request of the limited key, with the client's clock just before sending and on the answer. */
async function timedChat(
	service: LocalService,
): Promise<Reply & { sentAt: number; doneAt: number }> {
	const sentAt = Date.now();
	const reply = await chat(service, keys.limited, echo);
	return { ...reply, sentAt, doneAt: Date.now() };
}

async function sequential(service: LocalService, count: number) {
	const replies = [];
	for (let index = 0; index < count; index++) replies.push(await timedChat(service));
	return replies;
}

const retryAfterMs = (reply: Reply) => Number(reply.headers.get('retry-after')) * 1000;

/** A 429 of `limit`; `remaining` is what the window still leaves (0 when the window refused it). */
function expectRateLimited(reply: Reply, limit: RegExp, remaining = /^0$/): void {
	expect(reply.status).toBe(429);
	expect(reply.json).toEqual({
		error: {
			message: expect.stringMatching(limit),
			type: 'requests',
			code: 'rate_limit_exceeded',
		},
	});
	expect(reply.text).not.toContain(keys.limited);
	expect(reply.headers.get('retry-after')).toMatch(/^\d+(\.\d{1,3})?$/);
	expect(reply.headers.get('x-ratelimit-remaining-requests')).toMatch(remaining);
}

describe('the limited key of config.json', () => {
	it('allows 20 requests per second and 8 in flight', async () => {
		await withService([], async (service) => {
			expect((await service.traffic()).limited.limit).toEqual({
				requests: 20,
				windowSeconds: 1,
				inFlight: 8,
			});
		});
	});
});

describe('requests started per window', () => {
	it('refuses the request beyond the limit until the oldest leaves the window, Retry-After saying when', async () => {
		await withService(['--rate-limit', 'limited=5/3s'], async (service) => {
			const admitted = await sequential(service, 5);
			expect(admitted.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);

			const refused = await timedChat(service);
			expectRateLimited(
				refused,
				/^Rate limit reached for requests per 3s on key sk-exa\.\.\.ited: Limit 5, Used 5, Requested 1\. Please try again in (\d+ms|[12]\.\d+s)\.$/,
			);
			// The first request was admitted between its sending and its answer, the refusal likewise:
			// the wait is the rest of the 3 s window after the first admission, rounded up to the ms.
			const [first] = admitted;
			const wait = retryAfterMs(refused);
			expect(wait).toBeGreaterThanOrEqual(first.sentAt + 3000 - refused.doneAt - clockSlackMs);
			expect(wait).toBeLessThanOrEqual(first.doneAt + 3000 - refused.sentAt + 1 + clockSlackMs);

			// Before the slot frees (with room for a busy machine): still refused, told the rest of the wait.
			const before = 600;
			await delay(Math.max(0, wait - before));
			const early = await chat(service, keys.limited, echo);
			expect(early.status).toBe(429);
			expect(retryAfterMs(early)).toBeLessThanOrEqual(before + clockSlackMs);

			// Exactly when told: admitted.
			await delay(retryAfterMs(early));
			expect((await chat(service, keys.limited, echo)).status).toBe(200);
		});
	});

	it('counts every client of the key alike, and no other key', async () => {
		await withService(['--rate-limit', 'limited=4/10s'], async (service) => {
			const viaFetch = () => chat(service, keys.limited, echo);
			// A second client: its own connection, not fetch's pool.
			const viaHttp = () =>
				new Promise<number>((resolve, reject) => {
					const req = request(`${service.baseUrl}/models`, {
						agent: false,
						headers: { Authorization: `Bearer ${keys.limited}` },
					});
					req.on('response', (res) => {
						res.resume();
						resolve(res.statusCode ?? 0);
					});
					req.on('error', reject);
					req.end();
				});
			expect((await viaFetch()).status).toBe(200);
			expect(await viaHttp()).toBe(200);
			expect((await viaFetch()).status).toBe(200);
			expect(await viaHttp()).toBe(200);
			expect(await viaHttp()).toBe(429);
			expect((await viaFetch()).status).toBe(429);
			expect((await chat(service, keys.default, echo)).status).toBe(200);
		});
	});
});

describe('requests in flight', () => {
	const latencyMs = 300;

	it('refuses a request while the limit is in flight, Retry-After guessing the earliest end', async () => {
		await withService(
			['--rate-limit', 'limited=1000/s,8', '--latency-ms', String(latencyMs)],
			async (service) => {
				// One round to learn the service time; then 8 at once, and a ninth while they run.
				const learning = Date.now();
				await Promise.all(Array.from({ length: 8 }, () => chat(service, keys.limited, echo)));
				// What the service measured is at most what the client saw (more than latencyMs on a loaded machine).
				const longestMs = Date.now() - learning;
				const startedAt = Date.now();
				const running = Promise.all(
					Array.from({ length: 8 }, () => chat(service, keys.limited, echo)),
				);
				await inFlightReaches(service, 8);
				const refused = await timedChat(service);
				expectRateLimited(
					refused,
					/^Rate limit reached for requests in flight on key sk-exa\.\.\.ited: Limit 8, In flight 8, Requested 1\. Please try again in \d+ms\.$/,
					// The window of 1,000 holds the 16 admitted (8 when the first round left it on a loaded machine):
					// its header does not tell the in-flight limit.
					/^9(84|92)$/,
				);
				// The guess: the first of the 8 started, plus the mean service time, from now.
				const wait = retryAfterMs(refused);
				expect(wait).toBeGreaterThanOrEqual(startedAt + latencyMs - refused.doneAt - 50);
				expect(wait).toBeLessThanOrEqual(startedAt + longestMs + 50 - refused.sentAt);

				expect((await running).map((reply) => reply.status)).toEqual(Array(8).fill(200));
				expect((await chat(service, keys.limited, echo)).status).toBe(200);
			},
		);
	});

	it('tells a client to wait at least 10 ms when no service time is known yet', async () => {
		await withService(
			['--rate-limit', 'limited=1000/s,2', '--latency-ms', String(latencyMs)],
			async (service) => {
				const running = Promise.all([
					chat(service, keys.limited, echo),
					chat(service, keys.limited, echo),
				]);
				await inFlightReaches(service, 2);
				const refused = await chat(service, keys.limited, echo);
				expect(refused.status).toBe(429);
				expect(refused.headers.get('retry-after')).toBe('0.01');
				await running;
			},
		);
	});
});

describe('x-ratelimit headers', () => {
	it('come with every answer of a limited key: the limit, how many more now, when the next slot frees', async () => {
		await withService(['--rate-limit', 'limited=3/s,2'], async (service) => {
			const first = await chat(service, keys.limited, echo);
			const models = await getModels(service, keys.limited);
			const invalid = await chat(service, keys.limited, { model: 'echo-1' });
			const refused = await chat(service, keys.limited, echo);
			expect([first, models, invalid, refused].map((reply) => reply.status)).toEqual([
				200, 200, 400, 429,
			]);
			for (const reply of [first, models, invalid, refused]) {
				expect(reply.headers.get('x-ratelimit-limit-requests')).toBe('3');
				expect(reply.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d{1,3}ms|1s)$/);
			}
			// The window's count alone (3, less this one): the in-flight limit of 2 is not in it.
			expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('2');
			expect(invalid.headers.get('x-ratelimit-remaining-requests')).toBe('0');
			expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
		});
	});

	it('are absent for a key without limit', async () => {
		await withService([], async (service) => {
			const reply = await chat(service, keys.default, echo);
			expect(reply.headers.get('x-ratelimit-limit-requests')).toBeNull();
			expect(reply.headers.get('x-ratelimit-remaining-requests')).toBeNull();
		});
	});
});

describe('GET /__control/traffic', () => {
	it('counts admitted requests, 429s by limit, the most in flight, and the in-flight timeline', async () => {
		await withService(
			['--rate-limit', 'limited=10/10s,3', '--latency-ms', '200'],
			async (service) => {
				await service.clearRequests();
				const clearedAt = Date.now();
				const replies = await Promise.all(
					Array.from({ length: 5 }, () => chat(service, keys.limited, echo)),
				);
				expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 429, 429]);
				const { limited } = await service.traffic();
				expect(limited).toMatchObject({
					limit: { requests: 10, windowSeconds: 10, inFlight: 3 },
					admitted: 3,
					rejected: 2,
					rejectedBy: { window: 0, inFlight: 2 },
					inFlight: 0,
					maxInFlight: 3,
				});
				expect(limited.timeline.map((point) => point.inFlight)).toEqual([0, 1, 2, 3, 2, 1, 0]);
				const times = limited.timeline.map((point) => point.at);
				expect(times).toEqual([...times].sort((a, b) => a - b));
				expect(times[0]).toBeGreaterThanOrEqual(clearedAt - 1000);
				expect(times[4] - times[3]).toBeGreaterThanOrEqual(150);
			},
		);
	});

	it('is cleared with the request log: counts, timeline and the window start again', async () => {
		await withService(['--rate-limit', 'limited=2/60s'], async (service) => {
			await chat(service, keys.limited, echo);
			await chat(service, keys.limited, echo);
			expect((await chat(service, keys.limited, echo)).status).toBe(429);
			expect((await service.traffic()).limited).toMatchObject({ admitted: 2, rejected: 1 });

			await service.clearRequests();
			const { limited } = await service.traffic();
			expect(limited).toMatchObject({
				admitted: 0,
				rejected: 0,
				rejectedBy: { window: 0, inFlight: 0 },
				inFlight: 0,
				maxInFlight: 0,
			});
			expect(limited.timeline).toEqual([{ at: expect.any(Number), inFlight: 0 }]);
			expect((await chat(service, keys.limited, echo)).status).toBe(200);
		});
	});

	it('lists every key by name, the limit null for keys without one', async () => {
		await withService([], async (service) => {
			await chat(service, keys.default, echo);
			const traffic = await service.traffic();
			expect(Object.keys(traffic).sort()).toEqual(Object.keys(keys).sort());
			expect(traffic.default).toMatchObject({ limit: null, admitted: 1, maxInFlight: 1 });
		});
	});
});
