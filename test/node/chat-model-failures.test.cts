/**
 * The Chat Model's failures read as well as the Chat Completion node's wherever n8n shows them: the message
 * (all an AI node keeps) with the URL, the attempts and the fix, never n8n's generic headline; a description
 * that repeats nothing; and, streaming to a chat, a description that says it all on its own.
 */
import type { StructuredChunk } from 'n8n-workflow';

import { runProbe } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { closedPort } from '../../dev/service-client/local-service.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const invoke: ProbeScript = async (model) => ({ text: (await model.invoke('hello')).text });

test('a closed port: the URL, the attempts and the fix, not "perhaps it is offline"', async () => {
	const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl,
		model: 'echo-1',
		options: { maxRetries: 1 },
		script: invoke,
	});
	expect(run.error?.message).toBe(
		`The service at ${baseUrl}/chat/completions refused the connection, after 2 attempts. Check the Base URL in the credential and that the service is running and reachable from n8n.`,
	);
	// The code only in the description: n8n's wrappers swap a message that names it for a generic headline.
	expect(run.error?.description).toBe('(network error ECONNREFUSED)');
});

test('a model slower than Timeout: the Timeout and how to raise it', async () => {
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl: service().baseUrl,
		model: 'echo-1',
		options: { ...knobs({ slow_ms: 3000 }).options, timeout: 500 },
		script: invoke,
	});
	expect(run.error?.message).toMatch(
		new RegExp(
			`^The service at ${service().baseUrl}/chat/completions did not answer within the Timeout of 500 ms\\. Raise Options > Timeout`,
		),
	);
	expect(run.error?.description).toBe('(network error ETIMEDOUT)');
});

test('streaming to a chat, a reply cut at Maximum Tokens: the chat is told it was cut, and the fix', async () => {
	const chunks: StructuredChunk[] = [];
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl: service().baseUrl,
		model: 'echo-1',
		options: { maxTokens: 2 },
		onChunk: (chunk) => chunks.push(chunk),
		script: async (model, context) => {
			context.sendChunk('begin', 0);
			for await (const chunk of await model.stream('one two three four'))
				context.sendChunk('item', 0, chunk.text);
			context.sendChunk('end', 0);
			return {};
		},
	});
	expect(run.error?.message).toMatch(
		/^The model's reply was cut off at the token limit after 2 tokens: Options > Maximum Tokens \(2\)\. /,
	);
	const told = chunks.filter((chunk) => chunk.type === 'error').map((chunk) => chunk.content);
	// The chat gets a chat user's words; the execution keeps the limit and the fix.
	expect(told).toEqual([
		"The assistant is not set up correctly, so it cannot answer. Please let the workflow's owner know.",
	]);
});

test('a rate limit: the fix names what the Chat Model has, not a Concurrency option', async () => {
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl: service().baseUrl,
		model: 'echo-1',
		options: {
			...knobs({ fail_first: { id: 'model-429', count: 1, status: 429 } }).options,
			maxRateLimitWait: 0,
		},
		script: invoke,
	});
	expect(run.error?.message).toMatch(
		/^Too many requests: the service's rate limit for this key was reached/,
	);
	expect(run.error?.message).toContain(
		'Run fewer executions on this key at once, raise Options > Max Wait on Rate Limit (Ms)',
	);
	expect(run.error?.message).not.toContain('Concurrency');
});
