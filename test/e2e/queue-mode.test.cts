/**
 * Queue mode: `n8n start` enqueues webhook executions in Redis and `n8n worker` runs them. 200 executions of
 * the chat example, each with its own question, all run on the worker and each answers its own request.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { keys, useLocalService } from '../support/service.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { useRedis } from '../../dev/n8n/redis.cts';
import { exampleBehindWebhook } from '../../dev/n8n/workflows.cts';

const EXECUTIONS = 200;
const PARALLEL = 20;

const redisPort = useRedis();
const service = useLocalService();
const n8n = useRealN8n(() => ({
	credentials: [localCredential(keys.default, service().baseUrl)],
	workflows: [exampleBehindWebhook('chat', service().origin)],
	redisPort: redisPort(),
}));

test(`${EXECUTIONS} webhook executions of the chat example run on the worker, each with its own reply`, async () => {
	const started = Date.now();
	const replies: Array<{ question: string; content: unknown; status: number }> = [];
	for (let batch = 0; batch < EXECUTIONS; batch += PARALLEL) {
		const questions = Array.from(
			{ length: PARALLEL },
			(_, index) => `Question number ${batch + index} for the worker`,
		);
		replies.push(
			...(await Promise.all(
				questions.map(async (question) => {
					const response = await n8n().webhook('chat', { question });
					const body = (await response.json()) as { content?: unknown };
					return { question, content: body.content, status: response.status };
				}),
			)),
		);
	}
	const seconds = (Date.now() - started) / 1000;
	console.log(
		`queue mode: ${EXECUTIONS} executions in ${seconds.toFixed(1)} s (${PARALLEL} at a time)`,
	);

	const wrong = replies.filter((reply) => reply.status !== 200 || reply.content !== reply.question);
	expect(wrong).toEqual([]);
	// Each execution is logged by the worker that ran it; the main instance runs none in queue mode.
	const ran = new Set(
		n8n()
			.worker?.output()
			.match(/Worker started execution \d+/g),
	);
	expect(ran.size).toBe(EXECUTIONS);
});
