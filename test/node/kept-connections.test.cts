/**
 * n8n's own AI transport (the dispatcher of the AI node SDK's OpenAI model): requests share connections kept
 * open, across items, executions and model calls, and a connection the service closed while it was idle never
 * fails a request. The local service numbers the connections it saw (`connection` in its request log).
 */
import { runProbe } from './chat-model-probe.cts';
import { runEmbeddings } from './embeddings-probe.cts';
import type { Embeddings } from './embeddings-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { keys, startService, useLocalService } from '../support/service.cts';

const service = useLocalService();

/** Runs the Chat Completion node on `count` items, one at a time (Concurrency 1), with Max Retries 0. */
async function chatCompletion(count: number) {
	const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello there', 'echo-1', {
			options: { concurrency: 1, maxRetries: 0 },
		}),
		items: jsonItems(...Array.from({ length: count }, () => ({}))),
	});
	expect(error).toBeUndefined();
	return outputs[0].map((item) => item.json);
}

const connectionsSeen = async () =>
	new Set((await service().requests()).map((request) => request.connection));

/**
 * undici checks a connection that has just become idle for one turn of the event loop before it reuses it:
 * a request sent at once after the reply before it (Concurrency 1) opens a second connection, and then the
 * two take turns. No more than that, however many requests.
 */
const AT_MOST = 2;

test('20 items one at a time, then another execution: the same connection or two for all', async () => {
	await chatCompletion(20);
	await chatCompletion(3);
	const requests = await service().requests();
	expect(requests).toHaveLength(23);
	expect((await connectionsSeen()).size).toBeLessThanOrEqual(AT_MOST);
});

test('the Chat Model: three calls of one model and a model supplied again share the connections', async () => {
	const script: ProbeScript = async (model) => {
		for (const question of ['one', 'two', 'three']) await model.invoke(question);
		return {};
	};
	const args = { apiKey: keys.default, baseUrl: service().baseUrl, model: 'echo-1', script };
	expect((await runProbe(args)).error).toBeUndefined();
	expect((await runProbe(args)).error).toBeUndefined();
	expect(await service().requests()).toHaveLength(6);
	expect((await connectionsSeen()).size).toBeLessThanOrEqual(AT_MOST);
});

test("the Embeddings sub-node: a store's calls one after another, and a second execution, share the connections", async () => {
	const args = {
		apiKey: keys.rag,
		baseUrl: service().baseUrl,
		script: async (embeddings: Embeddings) => {
			for (let index = 0; index < 6; index++) await embeddings.embedDocuments([`chunk ${index}`]);
			return { query: (await embeddings.embedQuery('question')).length > 0 };
		},
	};
	const first = await runEmbeddings(args);
	expect(first.error).toBeUndefined();
	expect(first.output).toEqual({ query: true });
	expect((await runEmbeddings(args)).output).toEqual({ query: true });
	expect(await service().requests()).toHaveLength(14);
	expect((await connectionsSeen()).size).toBeLessThanOrEqual(AT_MOST);
});

test('the service closes the kept connection while idle: the next item is sent again on a new one, not as a retry (Max Retries 0)', async () => {
	await chatCompletion(1);
	await service().idleClose();
	const [item] = await chatCompletion(1);
	expect(item.content).toBe('Hello there');
	const requests = await service().requests();
	// The dropped request was never read: the service saw the first item's and the one sent again.
	expect(requests).toHaveLength(2);
	expect(new Set(requests.map((request) => request.connection)).size).toBe(2);
});

test('a request sent again on a new connection that fails too is counted in the error with the attempts', async () => {
	// A service of its own: no connection of an earlier test is kept to it, so that the first attempt alone
	// meets a connection lost while idle (the one closed here).
	const own = await startService();
	try {
		const engine = engineWith(keys.default, own.baseUrl);
		const parameters = (options: Record<string, unknown>) =>
			simpleParameters('Hello there', 'echo-1', { options: { concurrency: 1, ...options } });
		const first = await engine.runNode({
			type: NODE_TYPE,
			parameters: parameters({ maxRetries: 0 }),
			items: jsonItems({}),
		});
		expect(first.error).toBeUndefined();
		await own.idleClose();
		const { outputs } = await engine.runNode({
			type: NODE_TYPE,
			parameters: parameters({ maxRetries: 1, ...knobs({ reset: true }).options }),
			items: jsonItems({}),
			settings: { onError: 'continueRegularOutput' },
		});
		// The first attempt's request lost with the kept connection, sent again on a new one and reset there; the
		// second attempt on a new connection, reset.
		expect(outputs[0][0].json.error).toBe(
			`The service at ${own.baseUrl}/chat/completions closed the connection before answering, after 2 attempts (3 requests in all: one was sent again at once on a new connection, as a kept connection closed without answering) (item 0)`,
		);
		const requests = await own.requests();
		expect(requests).toHaveLength(3);
		expect(new Set(requests.map((request) => request.connection)).size).toBe(3);
	} finally {
		await own.stop();
	}
});
