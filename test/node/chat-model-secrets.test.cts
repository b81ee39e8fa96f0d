/**
 * The API key never shows through the Chat Completions Chat Model either: against a gateway that quotes
 * the key it receives (support/leaky-gateway.cts), neither the key nor a piece a mask leaves out may
 * appear in the error the AI node shows (its message, which the AI Agent keeps, and its description), in
 * what n8n records of the run, in any line n8n logs at debug level, or in what a streamed chat receives.
 */
import '../support/debug-log.cts';

import type { StructuredChunk } from 'n8n-workflow';
import { z } from 'zod';

import { runProbe } from './chat-model-probe.cts';
import type { ProbeRun, ProbeScript } from './chat-model-probe.cts';
import {
	capturedLog,
	expectHidden,
	expectNoLeak,
	QUICK_RETRIES,
	SECRET,
} from '../support/key-leaks.cts';
import { completion, leakyAnswers, useLeakyGateway } from '../support/leaky-gateway.cts';
import type { LeakyAnswer } from '../support/leaky-gateway.cts';

/** A reply a model gives only when asked for structured output: JSON cut short that quotes the key. */
const structuredLeaks: Record<string, LeakyAnswer> = {
	'leak-cut-json': (key) =>
		completion('leak-cut-json', { role: 'assistant', content: `{"answer": "${key}` }),
};

const leaky = useLeakyGateway({ ...leakyAnswers, ...structuredLeaks });

const invoke: ProbeScript = async (model) => ({ text: (await model.invoke('Hello')).text });

/** Streams the reply to the chat as an AI Agent behind a streaming Chat Trigger does. */
const streamToChat: ProbeScript = async (model, context) => {
	context.sendChunk('begin', 0);
	for await (const chunk of await model.stream('Hello')) context.sendChunk('item', 0, chunk.text);
	context.sendChunk('end', 0);
	return {};
};

const probe = (model: string, script: ProbeScript, onChunk?: (chunk: StructuredChunk) => void) =>
	runProbe({
		apiKey: SECRET,
		baseUrl: `${leaky()}/v1`,
		model,
		options: QUICK_RETRIES,
		script,
		onChunk,
	});

/** The run failed, and neither the message nor the description the AI node shows names the key. */
function expectFailedWithoutKey(run: ProbeRun): void {
	expect(run.status).toBe('error');
	expect(run.error?.message).toEqual(expect.any(String));
	expectHidden(SECRET, 'the message', run.error!.message);
	expectHidden(SECRET, 'the description', `${run.error!.description ?? ''}`);
}

describe('a gateway that quotes the key: the Chat Model shows it nowhere', () => {
	test.each(Object.keys(leakyAnswers))(
		'%s: message, description, the run n8n records and its log',
		async (model) => {
			const run = await expectNoLeak(SECRET, () => probe(model, invoke));
			expectFailedWithoutKey(run);
		},
	);

	test.each(Object.keys(leakyAnswers))('%s: a streamed chat', async (model) => {
		const chunks: StructuredChunk[] = [];
		const { run } = await expectNoLeak(SECRET, async () => ({
			run: await probe(model, streamToChat, (chunk) => chunks.push(chunk)),
			chunks,
		}));
		expectFailedWithoutKey(run);
		// The chat was told of the failure, in words that do not name the key either.
		const told = chunks.filter((chunk) => chunk.type === 'error');
		expect(told).toHaveLength(1);
		expectHidden(SECRET, 'the chat', `${told[0].content}`);
	});

	test('structured output whose reply quotes the key and does not parse: the answer quoted, the key not', async () => {
		const schema = z.object({ answer: z.string() });
		const run = await expectNoLeak(SECRET, () =>
			probe('leak-cut-json', async (model) => ({
				parsed: await model.withStructuredOutput(schema, { method: 'jsonSchema' }).invoke('Hello'),
			})),
		);
		expectFailedWithoutKey(run);
		// The description quotes what the model answered, with the key masked.
		expect(run.error?.message).toMatch(/The model answered: \{"answer": "sk-…5b4a/);
	});
});

describe('the capture', () => {
	test("saw n8n's debug log of the runs above, so their checks could fail", () => {
		expect(capturedLog()).toContain('Running node "Probe" finished with error');
	});
});
