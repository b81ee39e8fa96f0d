/**
 * Fallback Models, cost, request ids and the Token Budget in a real n8n with the packed package: the Chat
 * Model under the AI Agent (with its tool, and streaming) and the Basic LLM Chain, the Chat Completion
 * node behind a Webhook, against the local service's `fallback` key. And a 1,000-item batch at Concurrency
 * Auto under On Error: Continue that stops at its Token Budget.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { chatNode, questionsBehindWebhook } from '../../dev/n8n/workflows.cts';
import { keys, useLocalService } from '../support/service.cts';
import { agentWorkflow, chainWorkflow } from './chat-model-workflows.cts';
import { readStreamed } from './support/streamed-response.cts';

const service = useLocalService();
const BUDGET = 60;
const PROMPT = 'one two three';

const knobs = (x_local: Record<string, unknown>) => JSON.stringify({ x_local });

/** Each failure class another model may not share: the first model, and what its attempt says. */
const FALLS_BACK: Array<[string, RegExp]> = [
	['no-such-model', /does not exist on this service/],
	['echo-pro', /not available to this API key/],
	['fault-503-one-api-no-channel', /no channel for it/],
	['fault-503-model-not-found', /not available to this API key/],
	// Its 429 pauses the model on the key for 30 s: a later test within them finds it paused and does not send it.
	[
		'fault-429-wait',
		/Max Wait on Rate Limit|^Not sent: requests for model "fault-429-wait" on this key are paused/,
	],
	['fault-500', /failed while answering \(500\)/],
	['fault-200-error', /inside a successful \(200\) response/],
	['fault-timeout', /did not answer within the Timeout of 2000 ms/],
];
/** Each failure every model would share: the first model, and the error. */
const ENDS_AT_ONCE: Array<[string, RegExp]> = [
	['fault-string-error', /rejected the API key/],
	['fault-402', /run out of balance/],
	['fault-429-quota', /run out of balance/],
	['fault-400-budget', /run out of balance/],
	['fault-numeric-code', /rejected the request: Invalid parameter/],
];
/** Those of them that hold for every request of the key (a rejected key, the balance): the run asks no more after one. */
const FOR_THE_KEY = new Set([
	'fault-string-error',
	'fault-402',
	'fault-429-quota',
	'fault-400-budget',
]);
/** The same for every class: no retries, a short rate-limit wait and Timeout, echo-1 to fall back to. */
const CLASS_OPTIONS = {
	maxRetries: 0,
	maxRateLimitWait: 1000,
	timeout: 2000,
	fallbackModels: 'echo-1',
};

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.fallback, service().baseUrl);
	const model = (first: string, options: Record<string, unknown>) => ({
		credential,
		model: first,
		options,
	});
	const chat = (path: string, first: string, options: Record<string, unknown>) =>
		questionsBehindWebhook(path, {
			...chatNode({ credential, model: first, prompt: '={{ $json.question }}', options }),
			onError: 'continueRegularOutput',
		});
	return {
		credentials: [credential],
		workflows: [
			agentWorkflow(
				'agent-fallback-models',
				model('fault-503-one-api-no-channel', {
					fallbackModels: 'tools-1',
					extraBody: knobs({
						usage_cost: 0.002,
						request_id: { header: 'x-request-id', value: 'req-agent' },
					}),
				}),
			),
			agentWorkflow(
				'agent-fallback-stream',
				model('no-such-model', {
					fallbackModels: 'echo-1',
					extraBody: knobs({ usage_cost: 0.001 }),
				}),
				{ streaming: true, tools: false },
			),
			agentWorkflow('agent-no-fallback', model('fault-402', { fallbackModels: 'echo-1' }), {
				tools: false,
			}),
			agentWorkflow('agent-classes', model('={{ $json.body.model }}', CLASS_OPTIONS), {
				tools: false,
			}),
			chainWorkflow(
				'chain-fallback',
				model('fault-timeout', { timeout: 1000, fallbackModels: 'echo-1' }),
			),
			chat('chat-fallback', 'fault-500', {
				maxRetries: 1,
				fallbackModels: 'echo-pro, echo-1',
				extraBody: knobs({
					usage_cost: 0.5,
					request_id: { header: 'x-oneapi-request-id', value: 'one-api-7' },
				}),
			}),
			chat('chat-no-fallback', 'fault-429-quota', {
				fallbackModels: 'echo-1',
				extraBody: knobs({ request_id: { header: 'x-litellm-call-id', value: 'litellm-9' } }),
			}),
			chat('chat-budget', 'echo-1', { tokenBudget: BUDGET }),
			chat('chat-classes', '={{ $json.model }}', CLASS_OPTIONS),
		],
	};
});

let rest: N8nRest;
beforeAll(async () => {
	rest = await N8nRest.login(n8n().url, OWNER);
});

async function modelsAsked(): Promise<string[]> {
	return (await service().requests())
		.filter((request) => request.path === '/v1/chat/completions')
		.map((request) => (request.body as Record<string, unknown>).model as string);
}

/** What n8n's log shows of each call of the Chat Model in the workflow's newest execution. */
async function modelLog(workflowId: string): Promise<Array<Record<string, unknown>>> {
	const runData = await rest.lastRunData(workflowId);
	return runData['Chat Model'].map((run) => run.data!.ai_languageModel[0][0].json);
}

describe("the Chat Model with Fallback Models under n8n's AI nodes", () => {
	test("AI Agent with a tool: each call falls back from a model without a channel; cost in n8n's log", async () => {
		const reply = await n8n().answer('agent-fallback-models', {
			question: 'What is the weather in Paris?',
		});
		expect(reply.output).toBe(
			'Based on the tools: Weather({"city":"Paris"}) = [{"response":"Paris: sunny, 21 °C"}]',
		);
		expect(await modelsAsked()).toEqual([
			'fault-503-one-api-no-channel',
			'tools-1',
			'fault-503-one-api-no-channel',
			'tools-1',
		]);
		const log = await modelLog('e2e-agent-fallback-models');
		expect(log.map((call) => (call.tokenUsage as Record<string, unknown>).cost)).toEqual([
			0.002, 0.002,
		]);
	});

	test('AI Agent streaming: the fallback streams when the first model failed before its first token', async () => {
		const question = 'one two three four five six';
		const response = await n8n().webhook('agent-fallback-stream', { question });
		expect(response.status).toBe(200);
		const reads = await readStreamed(response);
		expect(reads.flatMap((read) => read.deltas).join('')).toBe(question);
		expect(await modelsAsked()).toEqual(['no-such-model', 'echo-1']);
		const [call] = await modelLog('e2e-agent-fallback-stream');
		expect(call.tokenUsage).toEqual({
			promptTokens: 6,
			completionTokens: 6,
			totalTokens: 12,
			cost: 0.001,
		});
	});

	test('AI Agent: out of balance (402) is not a reason to try another model', async () => {
		const reply = await n8n().answer('agent-no-fallback', { question: 'Hello' });
		expect(String(reply.error)).toMatch(/run out of balance/);
		expect(await modelsAsked()).toEqual(['fault-402']);
	});

	test('Basic LLM Chain: a model that times out is replaced', async () => {
		expect(await n8n().answer('chain-fallback', { question: 'Hello from the chain' })).toEqual({
			text: 'Hello from the chain',
		});
		expect(await modelsAsked()).toEqual(['fault-timeout', 'echo-1']);
	});
});

describe('each failure class in the AI Agent with the Chat Model', () => {
	test.each(FALLS_BACK)('%s: falls back', async (first, failure) => {
		const reply = await n8n().answer('agent-classes', { question: 'Hi', model: first });
		expect(reply.output).toBe('Hi');
		expect(await modelsAsked()).toEqual([first, 'echo-1']);
		// The agent keeps the text only: n8n's log of the model has the reply's metadata.
		const [call] = await modelLog('e2e-agent-classes');
		const generation = (
			(call.response as Record<string, unknown>).generations as Array<
				Array<Record<string, unknown>>
			>
		)[0][0];
		expect(JSON.stringify(generation)).toMatch(failure);
	});

	test.each(ENDS_AT_ONCE)('%s: no fallback', async (first, failure) => {
		const reply = await n8n().answer('agent-classes', { question: 'Hi', model: first });
		expect(String(reply.error)).toMatch(failure);
		expect(await modelsAsked()).toEqual([first]);
	});
});

describe('the Chat Completion node with Fallback Models', () => {
	test('every failure class in one batch: each falls back or ends at once as listed', async () => {
		// An answer for the whole key ends the run's asking (the items after it are not sent): not in this batch.
		const endsItem = ENDS_AT_ONCE.filter(([model]) => !FOR_THE_KEY.has(model));
		const classes = [...FALLS_BACK, ...endsItem];
		const items = (await n8n().answer('chat-classes', {
			questions: classes.map(([model]) => ({ question: 'Hi', model })),
		})) as unknown as Array<Record<string, unknown>>;
		FALLS_BACK.forEach(([first, failure], index) => {
			expect(items[index].content).toBe('Hi');
			expect(items[index].attempts).toEqual([
				{ model: first, error: expect.stringMatching(failure) },
			]);
		});
		endsItem.forEach(([, failure], index) => {
			expect(items[FALLS_BACK.length + index].error).toMatch(failure);
		});
		expect((await modelsAsked()).filter((model) => model === 'echo-1')).toHaveLength(
			FALLS_BACK.length,
		);
	});

	test('a server error after the retries, a model outside the group, then the answer: model, attempts, request_id, cost', async () => {
		const [item] = (await n8n().answer('chat-fallback', {
			questions: [{ question: 'Hello there' }],
		})) as unknown as Array<Record<string, unknown>>;
		expect(item.content).toBe('Hello there');
		expect(item.model).toMatch(/^echo-1-/);
		expect(item.attempts).toEqual([
			{ model: 'fault-500', error: 'The service failed while answering (500), after 2 attempts' },
			{ model: 'echo-pro', error: 'Model "echo-pro" is not available to this API key' },
		]);
		expect(item.request_id).toBe('one-api-7');
		expect(item.cost).toBe(0.5);
		expect(await modelsAsked()).toEqual(['fault-500', 'fault-500', 'echo-pro', 'echo-1']);
	});

	test('quota (429 insufficient_quota) ends the item at once, with the request id in the description', async () => {
		const [item] = (await n8n().answer('chat-no-fallback', {
			questions: [{ question: 'Hi' }],
		})) as unknown as Array<Record<string, unknown>>;
		expect(item.error).toBe('The account behind this API key has run out of balance (item 0)');
		expect((item.error_details as Record<string, unknown>).description).toMatch(
			/\(request id: litellm-9\)$/,
		);
		expect(await modelsAsked()).toEqual(['fault-429-quota']);
	});
});

test(`Token Budget of ${BUDGET} tokens, Concurrency Auto, On Error Continue: a 1,000-item batch spends the budget and no more`, async () => {
	const questions = Array.from({ length: 1000 }, () => ({ question: PROMPT }));
	const items = (await n8n().answer('chat-budget', { questions })) as unknown as Array<
		Record<string, unknown>
	>;
	expect(items).toHaveLength(1000);
	const sent = (await modelsAsked()).length;
	const answered = items.filter((item) => item.content === PROMPT).length;
	// Each reply counts 6 tokens: one request, then only what the budget left pays for, so 10 reach it exactly.
	expect(answered).toBe(sent);
	expect(sent).toBe(BUDGET / 6);
	expect(items.slice(0, answered).every((item) => item.content === PROMPT)).toBe(true);
	expect(items[answered].error).toMatch(
		new RegExp(
			`^Not sent: this run of the node has spent its Options > Token Budget of ${BUDGET} tokens \\(the replies received counted ${BUDGET} tokens\\) \\(item ${answered}\\)$`,
		),
	);
	expect(items.slice(answered).every((item) => /Token Budget/.test(String(item.error)))).toBe(true);
});
