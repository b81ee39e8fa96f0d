/**
 * The Chat Completions Chat Model in a real n8n with the packed package installed as n8n installs it,
 * under n8n's own AI nodes: the AI Agent with a Code Tool (one call, two parallel calls, streaming), the
 * Basic LLM Chain, the chat example behind its Chat Trigger, errors as the agent shows them, a 429 with
 * Retry-After, and the key kept out of what n8n records.
 */
import { parse as parseFlatted } from 'flatted';

import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { keys, useLocalService } from '../support/service.cts';
import type { RecordedRequest } from '../support/service.cts';
import {
	agentWorkflow,
	chainWorkflow,
	imageAgentWorkflow,
	langchainCodeWorkflow,
	publicChatExample,
} from './chat-model-workflows.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();
const badKey = { id: 'bad-key', name: 'Wrong key', type: 'chatCompletionsApi' };
/** Port 9 (discard) listens nowhere here: every connection is refused. */
const closedPort = { id: 'closed-port', name: 'Closed port', type: 'chatCompletionsApi' };
const CLOSED_BASE_URL = 'http://127.0.0.1:9/v1';
const WRONG_KEY = 'sk-example-wrong-key-for-the-agent';
let chatPath = '';

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const example = publicChatExample('ai-agent-chat', service().origin);
	chatPath = example.chatPath;
	const slow = { extraBody: JSON.stringify({ x_local: { delay_ms: 40 } }) };
	return {
		credentials: [
			credential,
			{ ...badKey, data: { apiKey: WRONG_KEY, baseUrl: service().baseUrl } },
			{ ...closedPort, data: { apiKey: keys.default, baseUrl: CLOSED_BASE_URL } },
		],
		workflows: [
			agentWorkflow('agent', { credential, model: 'tools-1' }),
			agentWorkflow('agent-force-tool', { credential, model: 'tools-1' }, { forceToolCall: true }),
			agentWorkflow(
				'agent-fallback',
				{ credential: badKey, model: 'tools-1' },
				{ fallback: { credential, model: 'tools-1' } },
			),
			chainWorkflow('chain', { credential, model: 'echo-1' }),
			langchainCodeWorkflow('code-tools', { credential, model: 'tools-1' }),
			langchainCodeWorkflow('code-json', { credential, model: 'json-1' }),
			// Response Format as the fields of version 1.1, what new Chat Model nodes get.
			chainWorkflow('chain-json', {
				credential,
				model: 'json-1',
				typeVersion: 1.1,
				fields: {
					responseFormat: 'jsonSchema',
					jsonSchema: JSON.stringify({
						type: 'object',
						properties: { city: { type: 'string' } },
						required: ['city'],
					}),
				},
			}),
			agentWorkflow(
				'agent-stream',
				{ credential, model: 'echo-1', options: slow },
				{ streaming: true, tools: false },
			),
			agentWorkflow('agent-tools-stream', { credential, model: 'tools-1' }, { streaming: true }),
			agentWorkflow('agent-bad-key', { credential: badKey, model: 'echo-1' }, { tools: false }),
			agentWorkflow('agent-outside-group', { credential, model: 'echo-pro' }, { tools: false }),
			agentWorkflow(
				'agent-429',
				{
					credential,
					model: 'echo-1',
					options: {
						extraBody: JSON.stringify({
							x_local: {
								fail_first: { id: 'e2e-agent-429', count: 1, status: 429, retry_after: '1' },
							},
						}),
					},
				},
				{ tools: false },
			),
			agentWorkflow(
				'agent-slow',
				{
					credential,
					model: 'echo-1',
					options: { extraBody: JSON.stringify({ x_local: { slow_ms: 30_000 } }) },
				},
				{ tools: false, answerAtOnce: true },
			),
			agentWorkflow(
				'agent-cut',
				{ credential, model: 'echo-1', options: { maxTokens: 3 } },
				{ tools: false },
			),
			agentWorkflow(
				'agent-stream-cut',
				{ credential, model: 'echo-1', options: { maxTokens: 3 } },
				{ streaming: true, tools: false, stopOnError: true },
			),
			agentWorkflow(
				'agent-closed-port',
				{ credential: closedPort, model: 'echo-1', options: { maxRetries: 1 } },
				{ tools: false },
			),
			agentWorkflow(
				'agent-stream-closed-port',
				{ credential: closedPort, model: 'echo-1', options: { maxRetries: 0 } },
				{ streaming: true, tools: false, stopOnError: true },
			),
			imageAgentWorkflow(
				'agent-image',
				{ credential, model: 'vision-1' },
				`${service().origin}/__assets/grey-4x5.jpg`,
			),
			example.workflow,
		],
	};
});

let rest: N8nRest;
beforeAll(async () => {
	rest = await N8nRest.login(n8n().url, OWNER);
	await rest.publish('e2e-ai-agent-chat');
	// The public chat answers GET with its page once its webhooks are live.
	const deadline = Date.now() + 60_000;
	while ((await fetch(`${n8n().url}/webhook/${chatPath}`)).status !== 200) {
		if (Date.now() > deadline) throw new Error(`The chat at /webhook/${chatPath} did not go live`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}, 120_000);

const answer = (path: string, body?: unknown) => n8n().answer(path, body);

/** The chat requests the service received since the last clear. */
async function chatRequests(): Promise<Array<RecordedRequest & { body: Record<string, unknown> }>> {
	return (await service().requests()).filter(
		(request) => request.path === '/v1/chat/completions',
	) as Array<RecordedRequest & { body: Record<string, unknown> }>;
}

/** A workflow's executions, newest first, with how each ended (`running`, `success`, `canceled`...). */
async function executionsOf(workflowId: string): Promise<Array<{ id: string; status: string }>> {
	const cookie = (rest as unknown as { cookie: string }).cookie;
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const response = await fetch(`${n8n().url}/rest/executions?filter=${filter}&limit=10`, {
		headers: { cookie },
	});
	return ((await response.json()) as { data: { results: Array<{ id: string; status: string }> } })
		.data.results;
}

/** n8n's record of the last execution of a workflow: its run data (flatted in the REST answer) and the raw text. */
async function lastExecution(
	workflowId: string,
): Promise<{ raw: string; runData: Record<string, Array<Record<string, unknown>>> }> {
	const cookie = (rest as unknown as { cookie: string }).cookie;
	const get = async (path: string) => {
		const response = await fetch(`${n8n().url}/rest${path}`, { headers: { cookie } });
		return await response.text();
	};
	const list = JSON.parse(
		await get(`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=1`),
	) as {
		data: { results: Array<{ id: string }> };
	};
	const raw = await get(`/executions/${list.data.results[0].id}`);
	const data = parseFlatted((JSON.parse(raw) as { data: { data: string } }).data.data) as {
		resultData: { runData: Record<string, Array<Record<string, unknown>>> };
	};
	return { raw, runData: data.resultData.runData };
}

describe('AI Agent with the Chat Model and a Code Tool', () => {
	test('a question that needs the tool: the service gets the tool result with the right tool_call_id', async () => {
		const reply = await answer('agent', { question: 'What is the weather in Paris?' });
		expect(reply.output).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]',
		);
		const [first, second] = await chatRequests();
		expect(first.body.model).toBe('tools-1');
		expect(first.body.stream).toBeUndefined();
		expect(
			(first.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
		).toEqual(['Weather']);
		const messages = second.body.messages as Array<Record<string, unknown>>;
		const assistant = messages.find((message) => message.role === 'assistant') as {
			content: unknown;
			tool_calls: Array<{ id: string; function: { arguments: string } }>;
		};
		expect(assistant.content).toBeNull();
		expect(assistant.tool_calls).toHaveLength(1);
		expect(assistant.tool_calls[0].function.arguments).toBe('{"city":"Paris"}');
		expect(messages.at(-1)).toEqual({
			role: 'tool',
			tool_call_id: assistant.tool_calls[0].id,
			content: '[{"response":"Paris: sunny, 21 °C"}]',
		});
		// The agent's token usage: the service's counts for both rounds (not estimates).
		const { runData } = await lastExecution('e2e-agent');
		const usage = runData['Chat Model'].map(
			(run) =>
				(run.data as { ai_languageModel: Array<Array<{ json: Record<string, unknown> }>> })
					.ai_languageModel[0][0].json,
		);
		expect(usage).toHaveLength(2);
		for (const output of usage) {
			expect(output.tokenUsage).toEqual({
				promptTokens: expect.any(Number),
				completionTokens: expect.any(Number),
				totalTokens: expect.any(Number),
			});
		}
	});

	test('two parallel calls: both run, and go back as one assistant message with both results', async () => {
		const reply = await answer('agent', { question: 'What is the weather in Paris and Tokyo?' });
		expect(reply.output).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]; ' +
				'Weather({"city":"Tokyo"}) = [{"response":"Tokyo: sunny, 21 °C"}]',
		);
		const requests = await chatRequests();
		expect(requests).toHaveLength(2);
		const messages = requests[1].body.messages as Array<Record<string, unknown>>;
		// The agent sends no system message when its options set none.
		expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
		const calls = (messages[1].tool_calls as Array<{ id: string }>).map((call) => call.id);
		expect(calls).toHaveLength(2);
		expect(messages.slice(2).map((message) => message.tool_call_id)).toEqual(calls);
	});

	test('Force Tool Call on First Iteration: the first request sends tool_choice "required", each tool once; the agent answers', async () => {
		const reply = await answer('agent-force-tool', { question: 'What is the weather in Paris?' });
		expect(reply.output).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]',
		);
		const [first, second] = await chatRequests();
		expect(first.body.tool_choice).toBe('required');
		expect(
			(first.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
		).toEqual(['Weather']);
		// Later rounds are free to answer.
		expect(second.body.tool_choice).toBeUndefined();
	});

	test('a Fallback Model: the first model fails (wrong key), the fallback answers with the tool', async () => {
		const reply = await answer('agent-fallback', { question: 'What is the weather in Paris?' });
		expect(reply.output).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]',
		);
		const sentKeys = (await chatRequests()).map((request) => request.headers.authorization);
		expect(sentKeys).toContain(`Bearer ${WRONG_KEY}`);
		expect(sentKeys.at(-1)).toBe(`Bearer ${keys.default}`);
	});

	test("the agent streams through a Webhook in streaming mode: pieces arrive while the model writes; usage is the service's", async () => {
		const question = 'one two three four five six seven eight nine ten eleven twelve';
		const response = await n8n().webhook('agent-stream', { question });
		expect(response.status).toBe(200);
		const reads = await readStreamed(response);
		const withText = reads.filter((read) => read.deltas.length > 0);
		expect(reads.flatMap((read) => read.deltas).join('')).toBe(question);
		expect(withText.length).toBeGreaterThanOrEqual(4);
		expect(reads[reads.length - 1].at - withText[0].at).toBeGreaterThanOrEqual(200);
		const [request] = await chatRequests();
		expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
		const { runData } = await lastExecution('e2e-agent-stream');
		const output = (
			runData['Chat Model'][0].data as {
				ai_languageModel: Array<Array<{ json: Record<string, unknown> }>>;
			}
		).ai_languageModel[0][0].json;
		expect(output.tokenUsage).toEqual({
			promptTokens: expect.any(Number),
			completionTokens: 12,
			totalTokens: expect.any(Number),
		});
		expect(output.tokenUsageEstimate).toBeUndefined();
	});

	test('streaming with two parallel tool calls: both survive, and the answer streams', async () => {
		const response = await n8n().webhook('agent-tools-stream', {
			question: 'What is the weather in Paris and Tokyo?',
		});
		const text = (await readStreamed(response)).flatMap((read) => read.deltas).join('');
		expect(text).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]; ' +
				'Weather({"city":"Tokyo"}) = [{"response":"Tokyo: sunny, 21 °C"}]',
		);
	});
});

test("an image in the agent's input item reaches the model (the agent passes binary images on)", async () => {
	const reply = await answer('agent-image', { question: 'Describe this photo.' });
	// The agent sends the image as a user message of its own, after the question: the model describes it.
	expect(reply.output).toBe('Image 1: JPEG 4x5');
	const [request] = await chatRequests();
	const user = (request.body.messages as Array<{ role: string; content: unknown }>).filter(
		(message) => message.role === 'user',
	);
	expect(user[0].content).toBe('Describe this photo.');
	expect(user[1].content).toEqual([
		{ type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) } },
	]);
});

test('Basic LLM Chain with the Chat Model', async () => {
	expect(await answer('chain', { question: 'Hello from the chain' })).toEqual({
		text: 'Hello from the chain',
	});
});

test('Basic LLM Chain with Response Format JSON Schema: the chain gets the checked JSON, parsed', async () => {
	// The model says it answers in JSON, so the chain parses the reply (else it would be { text: '{...}' }).
	expect(await answer('chain-json', { question: 'Paris' })).toEqual({ city: 'Paris' });
	const [request] = await chatRequests();
	expect(request.body.response_format).toEqual({
		type: 'json_schema',
		json_schema: {
			name: 'response',
			schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
			strict: false,
		},
	});
});

describe('LangChain Code with the Chat Model: withStructuredOutput', () => {
	test('functionCalling: a forced tool; the parsed arguments and the raw reply', async () => {
		const reply = await answer('code-tools', {
			question: 'Where is the Louvre?',
			method: 'functionCalling',
		});
		expect(reply).toEqual({ parsed: { city: expect.any(String) }, text: '', calls: 1 });
		const [request] = await chatRequests();
		expect(request.body.tool_choice).toEqual({ type: 'function', function: { name: 'place' } });
	});

	test('jsonSchema: response_format json_schema named as asked; the checked JSON', async () => {
		const reply = await answer('code-json', { question: 'Paris', method: 'jsonSchema' });
		expect(reply).toEqual({ parsed: { city: 'Paris' }, text: '{"city": "Paris"}', calls: 0 });
		const [request] = await chatRequests();
		expect(request.body.response_format).toMatchObject({
			type: 'json_schema',
			json_schema: { name: 'place', strict: false },
		});
	});
});

test('the chat example: Chat Trigger (streaming) -> AI Agent with the Chat Model and the Weather tool', async () => {
	const response = await fetch(`${n8n().url}/webhook/${chatPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			action: 'sendMessage',
			sessionId: 'e2e-session',
			chatInput: 'What is the weather in Paris and Tokyo?',
		}),
	});
	expect(response.status).toBe(200);
	const text = (await readStreamed(response)).flatMap((read) => read.deltas).join('');
	expect(text).toBe(
		'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]; ' +
			'Weather({"city":"Tokyo"}) = [{"response":"Tokyo: light rain, 17 °C"}]',
	);
});

describe("errors as the agent's error item shows them (only the message is kept)", () => {
	test('a wrong key', async () => {
		const { error } = (await answer('agent-bad-key', { question: 'hello' })) as { error: string };
		expect(error).toMatch(
			/^The service rejected the API key\. The service answered "[^"]+" \(HTTP 401/,
		);
		expect(error).toMatch(/Open the credential and paste the key again from the service console/);
		expect(error).not.toContain(WRONG_KEY);
	});

	test("a model outside the key's group", async () => {
		const { error } = (await answer('agent-outside-group', { question: 'hello' })) as {
			error: string;
		};
		expect(error).toMatch(
			/^Model "echo-pro" is not available to this API key\. The service answered "[^"]+" \(HTTP \d+/,
		);
		expect(error).toMatch(/Pick the model from the list/);
		expect(await chatRequests()).toHaveLength(1);
	});

	test("a closed port: the URL, the attempts and the fix, not n8n's generic headline", async () => {
		const { error } = (await answer('agent-closed-port', { question: 'hello' })) as {
			error: string;
		};
		expect(error).toBe(
			`The service at ${CLOSED_BASE_URL}/chat/completions refused the connection, after 2 attempts. Check the Base URL in the credential and that the service is running and reachable from n8n.`,
		);
	});

	test("streaming, a reply cut by Maximum Tokens: the chat user reads that the assistant is not set up, not the node's settings", async () => {
		const response = await n8n().webhook('agent-stream-cut', {
			question: 'one two three four five',
		});
		const errors = (await readStreamed(response)).flatMap((read) => read.errors);
		expect(errors).toEqual([
			"The assistant is not set up correctly, so it cannot answer. Please let the workflow's owner know.",
		]);
	});

	test('streaming to a chat, the service unreachable: the chat user sees no internal address; the execution keeps it and the fix', async () => {
		const response = await n8n().webhook('agent-stream-closed-port', { question: 'hello' });
		const errors = (await readStreamed(response)).flatMap((read) => read.errors);
		expect(errors).toEqual([
			'The assistant is unavailable right now. Please try again in a moment.',
		]);
		expect(errors.join(' ')).not.toContain('127.0.0.1');
		// The execution's error (what the owner sees in n8n) keeps the address and the fix.
		const recorded = await rest.lastError('e2e-agent-stream-closed-port');
		expect(recorded?.message).toContain(
			`The service at ${CLOSED_BASE_URL}/chat/completions refused the connection`,
		);
		expect(recorded?.message).toContain('Check the Base URL in the credential');
	});

	test('a reply cut by Maximum Tokens is not passed on as the answer', async () => {
		const { error } = (await answer('agent-cut', { question: 'one two three four five' })) as {
			error: string;
		};
		expect(error).toMatch(
			/^The model's reply was cut off at the token limit after 3 tokens: Options > Maximum Tokens \(3\)\./,
		);
	});
});

test('a 429 with Retry-After is retried once and succeeds', async () => {
	const reply = await answer('agent-429', { question: 'hello after the wait' });
	expect(reply.output).toBe('hello after the wait');
	const requests = await chatRequests();
	expect(requests).toHaveLength(2);
	expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(990);
});

test('stopping the execution while the model waits for the service ends the request at once', async () => {
	const cookie = (rest as unknown as { cookie: string }).cookie;
	const inFlight = async () => (await service().traffic()).default?.inFlight ?? 0;
	const started = await n8n().webhook('agent-slow', { question: 'hello' });
	expect(`${started.status} ${await started.text()}`).toMatch(/^200 /);
	let running: { id: string; status: string } | undefined;
	for (const deadline = Date.now() + 20_000; running === undefined && Date.now() < deadline; ) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		if ((await inFlight()) === 1) [running] = await executionsOf('e2e-agent-slow');
	}
	expect(running?.status).toBe('running');
	const stopped = Date.now();
	const stop = await fetch(`${n8n().url}/rest/executions/${running?.id}/stop`, {
		method: 'POST',
		headers: { cookie },
	});
	expect(stop.ok).toBe(true);
	while ((await inFlight()) > 0 && Date.now() - stopped < 10_000)
		await new Promise((resolve) => setTimeout(resolve, 100));
	// The service would have answered after 30 s: n8n's stop reached the request.
	expect(await inFlight()).toBe(0);
	expect(Date.now() - stopped).toBeLessThan(5_000);
	const [after] = await executionsOf('e2e-agent-slow');
	expect(after).toEqual({ ...after, id: running?.id, status: 'canceled' });
});

test('the API keys appear in no output, execution record or log', async () => {
	await answer('agent', { question: 'What is the weather in Paris?' });
	await answer('agent-bad-key', { question: 'hello' });
	for (const workflow of ['e2e-agent', 'e2e-agent-bad-key']) {
		const { raw } = await lastExecution(workflow);
		expect(raw).not.toContain(keys.default);
		expect(raw).not.toContain(WRONG_KEY);
	}
	expect(n8n().logs()).not.toContain(keys.default);
	expect(n8n().logs()).not.toContain(WRONG_KEY);
});
