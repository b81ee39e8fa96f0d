/**
 * What a user meets when something is wrong, in a real n8n with the packed package (issue 25's points, each
 * as n8n records or shows it): Stop Workflow in a batch at Concurrency Auto stops the spending and says what
 * it sent and cancelled; every invalid item is named, those with one problem together; messages point where
 * the fix is (Options > Extra Body, one-sentence empty expressions, a data URI with a space, Retry Timeouts
 * on, the Chat Model's rate limit and structured output).
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { OWNER } from '../../dev/n8n/owner.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { N8nRest } from '../../dev/n8n/rest.cts';
import { chatNode, questionsBehindWebhook } from '../../dev/n8n/workflows.cts';
import { keys, useLocalService } from '../support/service.cts';
import { agentWorkflow, chainWorkflow } from './chat-model-workflows.cts';

const service = useLocalService();
/** Answers that would take this long: a run that waited for them could not end sooner. */
const SLOW_MS = 8000;
const knobs = (x_local: Record<string, unknown>) => JSON.stringify({ x_local });
const SCHEMA = JSON.stringify({
	type: 'object',
	properties: { city: { type: 'string' } },
	required: ['city'],
});

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const faults = {
		...localCredential(keys.fallback, service().baseUrl),
		id: 'e2e-fallback-key',
		name: 'Fallback key',
	};
	const chat = (
		path: string,
		options: Record<string, unknown>,
		extra: Record<string, unknown> = {},
	) =>
		questionsBehindWebhook(path, {
			...chatNode({
				credential,
				model: '={{ $json.model ?? "echo-1" }}',
				prompt: '={{ $json.question }}',
				options,
			}),
			...extra,
		});
	const onItems = { onError: 'continueRegularOutput' };
	return {
		credentials: [credential, faults],
		workflows: [
			chat('stop-batch', { maxRetries: 0, extraBody: '={{ JSON.stringify($json.knobs) }}' }),
			chat('invalid-items', { temperature: '={{ $json.temperature }}' }),
			chat('empty-expression', { temperature: '={{ $json.temp }}' }, onItems),
			chat('extra-body-braces', { extraBody: '={{ {"top_k": 5}}}' }, onItems),
			chat(
				'retry-timeouts',
				{
					timeout: 300,
					maxRetries: 1,
					retryTimeouts: true,
					extraBody: knobs({ stall_headers_ms: 2000 }),
				},
				onItems,
			),
			questionsBehindWebhook('image-space', {
				...chatNode({ credential, model: 'vision-1', prompt: 'What is this?', options: {} }),
				parameters: {
					model: { __rl: true, mode: 'id', value: 'vision-1' },
					promptType: 'simple',
					prompt: 'What is this?',
					withImages: true,
					imageUrls: '={{ $json.url }}',
					options: {},
				},
				typeVersion: 1.2,
				...onItems,
			}),
			agentWorkflow(
				'agent-rate-limit',
				{ credential: faults, model: 'fault-429-wait', options: { maxRateLimitWait: 1000 } },
				{ tools: false },
			),
			chainWorkflow('chain-schema', {
				credential,
				model: 'json-1',
				typeVersion: 1.1,
				fields: { responseFormat: 'jsonSchema', jsonSchema: SCHEMA, repairAttempts: 0 },
				options: {
					extraBody: knobs({ invalid_json: { id: 'chain-schema', count: 5, mode: 'schema' } }),
				},
			}),
		],
	};
});

let rest: N8nRest;
beforeAll(async () => {
	rest = await N8nRest.login(n8n().url, OWNER);
});

const chatRequests = async () =>
	(await service().requests()).filter((request) => request.path === '/v1/chat/completions');

/** POSTs to the webhook of a workflow that fails; the error n8n recorded for the execution. */
async function failure(
	path: string,
	body: unknown,
): Promise<{ message: string; description?: string }> {
	const response = await n8n().webhook(path, body);
	await response.text();
	expect(response.ok).toBe(false);
	for (let wait = 0; wait < 50; wait++) {
		const [newest] = await rest.executions(`e2e-${path}`);
		if (newest !== undefined && newest.status !== 'running' && newest.status !== 'new') break;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const error = await rest.lastError(`e2e-${path}`);
	expect(error).toBeDefined();
	return error!;
}

/** The error of the one item a Continue workflow answers. */
async function itemError(
	path: string,
	question: Record<string, unknown>,
): Promise<{ error: string; description: string }> {
	const [item] = (await n8n().answer(path, { questions: [question] })) as unknown as Array<
		Record<string, unknown>
	>;
	return {
		error: item.error as string,
		description: (item.error_details as Record<string, unknown>).description as string,
	};
}

test('Stop Workflow at Concurrency Auto: the item the service rejects stops the batch, the requests in flight are cancelled, and the error says how many', async () => {
	// Item 20 fails at once (a 500, Max Retries 0); every other answer would take SLOW_MS.
	const failing = {
		x_local: { fail_first: { id: `e2e-stop-${Date.now()}`, count: 1, status: 500 } },
	};
	const questions = Array.from({ length: 200 }, (_, n) => ({
		question: `item ${n}`,
		knobs: n === 20 ? failing : { x_local: { slow_ms: SLOW_MS } },
	}));
	const started = Date.now();
	const error = await failure('stop-batch', { questions });
	expect(Date.now() - started).toBeLessThan(SLOW_MS);
	expect(error.message).toMatch(/^The service failed while answering \(500\)/);
	const note =
		/The node stopped at this failure \(On Error: Stop Workflow\): (\d+) requests were sent, (\d+) of them still in flight and cancelled, and no other request started\./.exec(
			error.description ?? '',
		);
	expect(note).not.toBeNull();
	const [sent, cancelled] = [Number(note![1]), Number(note![2])];
	expect(cancelled).toBe(sent - 1);
	expect(sent).toBeLessThan(200);
	expect((await chatRequests()).length).toBeLessThanOrEqual(sent);
});

test('Stop Workflow, a model from an expression the key cannot call at item 150 of 200: refused before any request, naming the item', async () => {
	const questions = Array.from({ length: 200 }, (_, n) => ({
		question: `item ${n}`,
		model: n === 150 ? 'no-such-model' : 'echo-1',
		knobs: {},
	}));
	const error = await failure('stop-batch', { questions });
	expect(error.message).toMatch(
		/^Model: "no-such-model" is not among the \d+ models this API key may call \(item 150\)$/,
	);
	expect(await chatRequests()).toHaveLength(0);
});

test('Stop Workflow, invalid items: nothing is sent, and the description names every invalid item, those with one problem together', async () => {
	const temperature = (n: number) => (n >= 1 && n <= 5 ? 2 + n : [150, 199].includes(n) ? -1 : 0.5);
	const questions = Array.from({ length: 200 }, (_, n) => ({
		question: `item ${n}`,
		temperature: temperature(n),
	}));
	const error = await failure('invalid-items', { questions });
	expect(error.message).toMatch(
		/^7 items are invalid, so nothing was sent: item 1: Temperature: must be from 0 to 2, got 3; /,
	);
	for (const n of [1, 2, 3, 4, 5])
		expect(error.description).toContain(
			`Item ${n}: Temperature: must be from 0 to 2, got ${n + 2}.`,
		);
	expect(error.description).toContain('Items 150, 199: Temperature: must be from 0 to 2, got -1.');
	expect(await chatRequests()).toEqual([]);
});

test('an empty expression in an option: one sentence, and the fix', async () => {
	const { error, description } = await itemError('empty-expression', { question: 'Hi' });
	expect(error).toBe(
		'Temperature: is empty because its expression {{ $json.temp }} finds no field "temp" in the input item (item 0)',
	);
	expect(description).toMatch(/remove Options > Temperature to leave it unset/);
});

test('a "}}" in Extra Body\'s expression names Options > Extra Body, not the collection', async () => {
	const { error, description } = await itemError('extra-body-braces', { question: 'Hi' });
	expect(`${error} ${description}`).not.toMatch(/"options"/);
	expect(description).toMatch(/Options > Extra Body/);
	expect(await chatRequests()).toEqual([]);
});

test('a data URI with a space: told so, not about %20', async () => {
	const { error, description } = await itemError('image-space', {
		url: 'data:image/png;base64,iVBORw0KGgo AAAANSUhEUg',
	});
	expect(error).toMatch(/^Image URLs: the data URI "data:image\/png;base64,.*" has a space inside/);
	expect(description).toMatch(/A data URI is one run without spaces/);
	expect(description).not.toMatch(/%20/);
});

test('a timeout with Retry Timeouts on: each attempt waited the Timeout, not "is not sent again"', async () => {
	const { error, description } = await itemError('retry-timeouts', { question: 'Hi' });
	expect(error).toMatch(/did not answer within the Timeout of 300 ms, after 2 attempts/);
	expect(description).toMatch(/Each attempt waited that long \(Options > Retry Timeouts is on\)/);
	expect(description).not.toMatch(/is not sent again/);
});

test("the Chat Model's rate limit under the AI Agent: the wait it allows, and no Concurrency it lacks", async () => {
	const reply = await n8n().answer('agent-rate-limit', { question: 'Hi' });
	expect(String(reply.error)).toMatch(/Options > Max Wait on Rate Limit \(Ms\) allows \(/);
	expect(String(reply.error)).not.toMatch(/Concurrency/);
});

test("the Chat Model's structured output that does not fit, in the Basic LLM Chain: the model's answer is quoted, no pointer to a field the chain never outputs", async () => {
	const error = await failure('chain-schema', { question: 'Paris' });
	const text = `${error.message} ${error.description ?? ''}`;
	expect(text).toMatch(/The model answered: /);
	expect(text).not.toMatch(/error_details|raw_content/);
});
