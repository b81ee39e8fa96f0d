/**
 * The token counts n8n reads of a Chat Model's generation: n8n's token tracing (what the AI Agent and the
 * sub-node's log sum per turn, and show as an estimate when it finds none) reads `llmOutput.tokenUsage` as
 * `promptTokens`, `completionTokens`, `totalTokens`. Every generation gives the service's counts there, whole
 * or streamed, and whichever way an AI node asks: `invoke`, `stream`, or `invoke` under a handler that prefers
 * streaming (the AI Agent behind a streaming Chat Trigger), with the probe root node of chat-model-probe.cts.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import type { IDataObject } from 'n8n-workflow';

import { modelOutputs, runProbe, warmUp } from './chat-model-probe.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

beforeAll(async () => await warmUp(keys.default, service().baseUrl), 60_000);

/** Five words in, five words echoed: the local service counts words as tokens. */
const PROMPT = 'one two three four five';
const COUNTS = { promptTokens: 5, completionTokens: 5, totalTokens: 10 };

/** A LangChain callback handler that keeps the `llmOutput` of every generation that ends. */
function tokenTracer(prefersStreaming: boolean) {
	const seen: unknown[] = [];
	const handler = {
		name: 'token-tracer',
		awaitHandlers: true,
		lc_prefer_streaming: prefersStreaming,
		handleLLMEnd(output: { llmOutput?: unknown }) {
			seen.push(output.llmOutput);
		},
	};
	return { handler, seen };
}

type Ask = (model: BaseChatModel, callbacks: object[]) => Promise<string>;

const invoke: Ask = async (model, callbacks) => (await model.invoke(PROMPT, { callbacks })).text;

const stream: Ask = async (model, callbacks) => {
	let whole: AIMessageChunk | undefined;
	for await (const chunk of await model.stream(PROMPT, { callbacks }))
		whole = whole === undefined ? chunk : concat(whole, chunk);
	return whole?.text ?? '';
};

const ways: Array<[string, Ask, boolean, boolean]> = [
	['a whole reply (invoke)', invoke, false, false],
	['a streamed reply (stream)', stream, false, true],
	[
		'a reply streamed for a handler that prefers streaming (the AI Agent streaming)',
		invoke,
		true,
		true,
	],
];

describe("every generation gives the service's counts where n8n reads them", () => {
	test.each(ways)('%s', async (_way, ask, prefersStreaming, streamed) => {
		const tracer = tokenTracer(prefersStreaming);
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: service().baseUrl,
			model: 'echo-1',
			script: async (model) => ({ text: await ask(model, [tracer.handler]) }),
		});
		expect(run.error).toBeUndefined();
		expect(run.output?.text).toBe(PROMPT);
		const [request] = await service().requests();
		expect((request.body as IDataObject).stream ?? false).toBe(streamed);
		// What LangChain hands every callback, n8n's token tracing among them.
		expect(tracer.seen).toEqual([expect.objectContaining({ tokenUsage: COUNTS })]);
		// n8n's log of the sub-node: the counts, not an estimate.
		const [output] = modelOutputs(run.runData);
		expect(output.tokenUsage).toEqual(COUNTS);
		expect(output.tokenUsageEstimate).toBeUndefined();
	});

	test("with the service's cost: the counts and the cost, whole and streamed", async () => {
		for (const ask of [invoke, stream]) {
			const tracer = tokenTracer(false);
			const run = await runProbe({
				apiKey: keys.default,
				baseUrl: service().baseUrl,
				model: 'echo-1',
				options: knobs({ usage_cost: 0.25 }).options,
				script: async (model) => ({ text: await ask(model, [tracer.handler]) }),
			});
			expect(tracer.seen).toEqual([expect.objectContaining({ tokenUsage: COUNTS })]);
			expect(modelOutputs(run.runData)[0].tokenUsage).toEqual({ ...COUNTS, cost: 0.25 });
		}
	});
});
