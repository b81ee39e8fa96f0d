/**
 * The embeddings sub-node in real n8n queue mode: 2 `n8n worker` processes run 4 webhook executions at once,
 * each inserting its own 200 chunks into a Simple Vector Store with the Chat Completions Embeddings (Batch
 * Size 10: 20 requests per execution), all on ONE key that the local service limits to 10 requests started per
 * second and 4 in flight. No execution fails, every chunk is embedded exactly once (the service admitted one
 * request per batch, and saw every chunk), and the service did send 429s (the limit was met, not dodged).
 */
import { localRagCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { useRedis } from '../../dev/n8n/redis.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { executionsStarted } from '../../dev/n8n/process.cts';
import { keys, useLocalService } from '../support/service.cts';
import { insertWorkflow } from './embeddings-workflows.cts';

const WORKERS = 2;
const EXECUTIONS = 4;
const CHUNKS = 200;
const BATCH_SIZE = 10;
const REQUESTS_PER_SECOND = 10;
const IN_FLIGHT = 4;

const redisPort = useRedis();
const service = useLocalService({
	args: ['--rate-limit', `rag=${REQUESTS_PER_SECOND}/s,${IN_FLIGHT}`, '--latency-ms', '50'],
});

let workflowId = '';
const n8n = useRealN8n(() => {
	const credential = localRagCredential(keys.rag, service().baseUrl);
	const workflow = insertWorkflow(
		'queue-insert',
		'queue-archive',
		{ credential, model: 'embed-1', options: { batchSize: BATCH_SIZE } },
		{ clearStore: false },
	);
	workflowId = workflow.id;
	return {
		credentials: [credential],
		workflows: [workflow],
		redisPort: redisPort(),
		workers: WORKERS,
	};
});

test(`${EXECUTIONS} inserts of ${CHUNKS} chunks on ${WORKERS} workers share one key limited to ${REQUESTS_PER_SECOND}/s and ${IN_FLIGHT} in flight: none fails, every chunk embedded once`, async () => {
	const chunksOf = (execution: number) =>
		Array.from({ length: CHUNKS }, (_, n) => `Execution ${execution}, chunk ${n}, word${n}`);
	const answers = await Promise.all(
		Array.from({ length: EXECUTIONS }, async (_, execution) => {
			const chunks = chunksOf(execution);
			const response = await n8n().webhook('queue-insert', {
				documents: chunks.map((text) => ({ text })),
			});
			return { execution, chunks, status: response.status, text: await response.text() };
		}),
	);
	const { rag } = await service().traffic();
	const ranBy = n8n().workers.map(executionsStarted);
	console.log(
		`embeddings in queue mode: ${EXECUTIONS} x ${CHUNKS} chunks on ${WORKERS} workers (executions per worker: ` +
			`${ranBy.join(', ')}); 429s ${rag.rejected} (window ${rag.rejectedBy.window}, in flight ` +
			`${rag.rejectedBy.inFlight}), requests admitted ${rag.admitted}, at most ${rag.maxInFlight} in flight`,
	);

	// Every execution answered 200 with each of its own chunks inserted.
	const wrong = answers.filter(({ status, text, chunks }) => {
		if (status !== 200) return true;
		const items = JSON.parse(text) as Array<{ pageContent?: string }>;
		const inserted = items.map((item) => item.pageContent);
		return JSON.stringify([...inserted].sort()) !== JSON.stringify([...chunks].sort());
	});
	const rest = await N8nRest.login(n8n().url, OWNER);
	const executions = await rest.executions(workflowId);
	if (wrong.length > 0) {
		const errors = await Promise.all(
			executions
				.filter((execution) => execution.status !== 'success')
				.map(async (execution) => JSON.stringify((await rest.result(execution.id)).error)),
		);
		throw new Error(
			`${wrong.length} of ${EXECUTIONS} inserts did not insert their chunks: ` +
				`${wrong.map(({ execution, status, text }) => `execution ${execution}: ${status} ${text.slice(0, 300)}`).join('\n')}\n` +
				`n8n's errors: ${errors.join('\n')}\n${n8n().logs()}`,
		);
	}
	const statuses = executions.map((execution) => execution.status);
	expect(statuses).toEqual(Array.from({ length: EXECUTIONS }, () => 'success'));

	// The service saw every chunk and admitted one request per batch: each chunk embedded exactly once.
	// It refused some (429) and the sub-node waited them out.
	const sent = (await service().requests())
		.filter((request) => request.path === '/v1/embeddings')
		.flatMap((request) => (request.body as { input: string[] }).input);
	const all = Array.from({ length: EXECUTIONS }, (_, execution) => chunksOf(execution)).flat();
	expect([...new Set(sent)].sort()).toEqual([...all].sort());
	expect(rag.admitted).toBe((EXECUTIONS * CHUNKS) / BATCH_SIZE);
	expect(rag.rejected).toBeGreaterThan(0);
	expect(rag.maxInFlight).toBeLessThanOrEqual(IN_FLIGHT);
	// Both workers took executions: several processes shared the key.
	expect(ranBy.reduce((sum, count) => sum + count, 0)).toBe(EXECUTIONS);
	expect(ranBy.filter((count) => count > 0)).toHaveLength(WORKERS);
});
