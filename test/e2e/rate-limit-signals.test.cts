/**
 * What the service says of one key, across real n8n queue-mode workers: Redis and 4 `n8n worker` processes run
 * 4 webhook executions at once, each Webhook -> Split Out -> Chat Completion at its defaults, all on ONE key.
 * Workers share nothing but the service's answers: new-api's cap on requests in flight (each worker comes down
 * to it, and sends one fewer for each further 429) and OpenAI's x-ratelimit headers (each worker holds its requests
 * until the bucket's reset). Every execution succeeds with every item's own reply; the refusals are printed and
 * bounded.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import type { LocalService } from '../support/service.cts';
import { keys, startService } from '../support/service.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { useRedis } from '../../dev/n8n/redis.cts';
import { executionsStarted } from '../../dev/n8n/process.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { chatNode, questionsBehindWebhook } from '../../dev/n8n/workflows.cts';

const WORKERS = 4;
const EXECUTIONS = 4;
const ITEMS = 100;
const CAP = 8;

const redisPort = useRedis();
const services: Partial<Record<'cap' | 'headers', LocalService>> = {};
beforeAll(async () => {
	services.cap = await startService({
		args: ['--rate-limit', `limited=1000000/s,${CAP}@new-api`, '--latency-ms', '100'],
	});
	// A bucket of 200 requests refilled over 10 s: the first 200 go at once, the other 200 wait for its refill.
	services.headers = await startService({
		args: ['--rate-limit', 'limited=200/10s@openai', '--latency-ms', '50'],
	});
});
afterAll(async () => {
	await Promise.all(Object.values(services).map(async (service) => await service.stop()));
});

const workflowIds: Record<string, string> = {};
const n8n = useRealN8n(() => {
	const entries = (['cap', 'headers'] as const).map((name) => {
		const credential = {
			...localCredential(keys.limited, services[name]!.baseUrl),
			id: `limited-${name}`,
			name: `Limited key (${name})`,
		};
		const workflow = questionsBehindWebhook(
			`signals-${name}`,
			chatNode({ credential, model: 'echo-1', prompt: '={{ $json.question }}' }),
		);
		workflowIds[name] = workflow.id;
		return { credential, workflow };
	});
	return {
		credentials: entries.map((entry) => entry.credential),
		workflows: entries.map((entry) => entry.workflow),
		redisPort: redisPort(),
		workers: WORKERS,
	};
});

/** The 4 executions at once on the service `name`: each answers every question, in order; n8n records success. */
async function executions(name: 'cap' | 'headers') {
	const service = services[name]!;
	await service.clearRequests();
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: EXECUTIONS }, async (_, execution) => {
			const questions = Array.from(
				{ length: ITEMS },
				(_, item) => `Execution ${execution}, question ${item}`,
			);
			const response = await n8n().webhook(`signals-${name}`, {
				questions: questions.map((question) => ({ question })),
			});
			const text = await response.text();
			if (response.status !== 200)
				return `execution ${execution}: ${response.status} ${text.slice(0, 300)}`;
			const items = JSON.parse(text) as Array<{ content?: unknown }>;
			const ok = JSON.stringify(items.map((item) => item.content)) === JSON.stringify(questions);
			return ok ? undefined : `execution ${execution}: ${text.slice(0, 300)}`;
		}),
	);
	const seconds = (Date.now() - started) / 1000;
	const wrong = answers.filter((answer) => answer !== undefined);
	if (wrong.length > 0) throw new Error(`${wrong.join('\n')}\n${n8n().logs()}`);
	const rest = await N8nRest.login(n8n().url, OWNER);
	const statuses = (await rest.executions(workflowIds[name])).map((execution) => execution.status);
	expect(statuses).toEqual(Array.from({ length: EXECUTIONS }, () => 'success'));
	const ranBy = n8n().workers.map(executionsStarted);
	const traffic = (await service.traffic()).limited;
	// The first answer the service sent (its count in flight went down), and the last 429 after it, in ms.
	const firstAnswer = traffic.timeline.find(
		(point, index) => index > 0 && point.inFlight < traffic.timeline[index - 1].inFlight,
	);
	const lastRefusalMs =
		traffic.lastRejectedAt === null || firstAnswer === undefined
			? undefined
			: Math.round(traffic.lastRejectedAt - firstAnswer.at);
	const lastRefusal =
		lastRefusalMs === undefined ? 'none' : `${lastRefusalMs} ms after the first answer`;
	return { seconds, traffic, ranBy, lastRefusal, lastRefusalMs };
}

test(`new-api's cap of ${CAP} in flight across ${WORKERS} workers: every item answered, the refusals bounded`, async () => {
	const { seconds, traffic, ranBy, lastRefusal } = await executions('cap');
	console.log(
		`cap across workers: ${seconds.toFixed(1)} s, executions per worker ${ranBy.join(', ')}; 429s ${traffic.rejected}, admitted ${traffic.admitted}; the last 429 ${lastRefusal}`,
	);
	expect(traffic.admitted).toBe(EXECUTIONS * ITEMS);
	expect(ranBy.filter((count) => count > 0)).toHaveLength(WORKERS);
	// The first bursts meet the cap (each execution sends Auto's first 64 at once: up to 248 refused); after them
	// each worker comes down to the cap, then one request fewer for each further 429 naming it. Each worker learns
	// alone (a process of its own), so how many are refused depends on how the four workers' bursts interleave: 252 to
	// 292 in all on a quiet 2-core machine, 293 to 452 in seven runs of a later round (clean clones included, the
	// same before and after that round's changes). Bounded: the first bursts and fewer than one 429 per item after
	// them; the step down by one per 429 within a worker is held by the unit and node tests of the limiter.
	const firstBursts = EXECUTIONS * 64 - CAP;
	expect(traffic.rejected).toBeGreaterThan(0);
	expect(traffic.rejected).toBeLessThan(firstBursts + EXECUTIONS * ITEMS);
});

test("OpenAI's reset headers across workers: every item answered, no 429 after the workers' first replies", async () => {
	const { seconds, traffic, lastRefusal, lastRefusalMs } = await executions('headers');
	console.log(
		`headers across workers: ${seconds.toFixed(1)} s; 429s ${traffic.rejected}, admitted ${traffic.admitted}; the last 429 ${lastRefusal}`,
	);
	expect(traffic.admitted).toBe(EXECUTIONS * ITEMS);
	// 256 sent at once meet the bucket of 200, before any worker has read a header; while their first replies
	// come in, each worker takes what a reply says is left before it has seen the others' share (119 to 154
	// refused in all measured, all within 0.5 s of the first answer). After that the headers hold: every worker
	// waits for the bucket's refill (10 s) and shares it, so no 429 comes later (a worker taking a refill as its
	// own would meet one about 10 s after the first answer).
	expect(traffic.rejected).toBeLessThan((EXECUTIONS * ITEMS) / 2);
	expect(lastRefusalMs ?? 0).toBeLessThan(5000);
});
