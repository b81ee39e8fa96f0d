/**
 * Queue mode: `n8n start` enqueues webhook executions in Redis and `n8n worker` runs them. 200 executions of
 * the chat example, each with its own question, all run on the worker and each answers its own request.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { keys, useLocalService } from '../support/service.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { workerExecutions } from '../../dev/n8n/process.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { useRedis } from '../../dev/n8n/redis.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { exampleBehindWebhook } from '../../dev/n8n/workflows.cts';

const EXECUTIONS = 200;
const PARALLEL = 20;
/** A webhook that has not answered by then never will: the test says which, instead of timing out. */
const ANSWER_WITHIN_MS = 60_000;

const redisPort = useRedis();
const service = useLocalService();
/** The chat example's id in n8n, once imported. */
let workflowId = '';
const n8n = useRealN8n(() => {
	const workflow = exampleBehindWebhook('chat', service().origin);
	workflowId = workflow.id;
	return {
		credentials: [localCredential(keys.default, service().baseUrl)],
		workflows: [workflow],
		redisPort: redisPort(),
	};
});

interface Reply {
	question: string;
	status: number;
	content?: unknown;
	/** What n8n answered instead of the reply. */
	body?: string;
}

async function ask(question: string): Promise<Reply> {
	try {
		const response = await n8n().webhook(
			'chat',
			{ question },
			AbortSignal.timeout(ANSWER_WITHIN_MS),
		);
		const text = await response.text();
		if (!response.ok) return { question, status: response.status, body: text };
		const { content } = JSON.parse(text) as { content?: unknown };
		return { question, status: response.status, content };
	} catch (error) {
		return { question, status: 0, body: `no answer: ${String(error)}` };
	}
}

/** For a failure message: how far each wrong question went, and what the n8n processes said. */
async function whatHappened(wrong: Reply[]): Promise<string> {
	const requests = await service().requests();
	const atService = wrong.map(({ question }) => {
		const seen = requests.filter((request) => JSON.stringify(request.body).includes(question));
		return `${question}: ${seen.length} request(s) at the service, ended ${seen.map((request) => request.ended?.by ?? 'not yet').join(', ') || '-'}`;
	});
	const worker = n8n().worker!;
	const finished = new Set(workerExecutions(worker, 'finished'));
	const unfinished = workerExecutions(worker, 'started').filter((id) => !finished.has(id));
	const said = [n8n().main, ...n8n().workers].map((process) =>
		process
			.output()
			.split('\n')
			.filter((line) => /error|fail|warn|stalled/i.test(line))
			.join('\n'),
	);
	const rest = await N8nRest.login(n8n().url, OWNER);
	const failed = await rest.executions(workflowId, ['error', 'crashed', 'canceled']);
	const errors = await Promise.all(
		failed.map(async ({ id, status }) => {
			const { error } = await rest.result(id);
			return `execution ${id} ${status}: ${error?.message ?? '(no error recorded)'} ${error?.description ?? ''}`;
		}),
	);
	return [
		...atService,
		...errors,
		`executions the worker started and did not finish: ${unfinished.join(', ') || 'none'}`,
		`errors and warnings (main, then workers):\n${said.join('\n---\n')}`,
	].join('\n');
}

test(`${EXECUTIONS} webhook executions of the chat example run on the worker, each with its own reply`, async () => {
	const started = Date.now();
	const replies: Reply[] = [];
	for (let batch = 0; batch < EXECUTIONS; batch += PARALLEL) {
		const questions = Array.from(
			{ length: PARALLEL },
			(_, index) => `Question number ${batch + index} for the worker`,
		);
		replies.push(...(await Promise.all(questions.map(ask))));
	}
	const seconds = (Date.now() - started) / 1000;
	console.log(
		`queue mode: ${EXECUTIONS} executions in ${seconds.toFixed(1)} s (${PARALLEL} at a time)`,
	);

	const wrong = replies.filter((reply) => reply.status !== 200 || reply.content !== reply.question);
	if (wrong.length > 0) console.log(await whatHappened(wrong));
	expect(wrong).toEqual([]);
	// Each execution is logged by the worker that ran it; the main instance runs none in queue mode.
	const ran = new Set(
		n8n()
			.worker?.output()
			.match(/Worker started execution \d+/g),
	);
	expect(ran.size).toBe(EXECUTIONS);
});
