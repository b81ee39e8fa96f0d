/**
 * The API key never shows: every error path runs with a recognisable key, and neither the key nor its
 * hidden middle (what the mask `sk-…5b4a` leaves out) may appear in an output item, an error item, the
 * run's error, a thrown error, or any line n8n logs at debug level. A small gateway (support/leaky-gateway.cts)
 * quotes the key it receives in every way a real one might; the local service covers its own error paths.
 * The Chat Model's side: chat-model-secrets.test.cts.
 */
import '../support/debug-log.cts';

import type { INodeParameters, NodeParameterValue } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import {
	capturedLog,
	expectHidden,
	expectNoLeak,
	QUICK_RETRIES,
	reveal,
	SECRET,
	startCapture,
} from '../support/key-leaks.cts';
import { leakyAnswers, useLeakyGateway } from '../support/leaky-gateway.cts';
import type { RunNodeResult } from '../../dev/n8n-core/harness.cts';
import { closedPort, keys, useLocalService, faultModels } from '../support/service.cts';

const service = useLocalService();
const leaky = useLeakyGateway();

/** The error the model list fails with (it must not load). */
const failedModelList = (apiKey: string, baseUrl: string) =>
	engineWith(apiKey, baseUrl)
		.listSearch({ type: NODE_TYPE, method: 'searchModels' })
		.then(
			() => {
				throw new Error('The model list loaded');
			},
			(error: unknown) => error,
		);

async function failedCredentialTest(apiKey: string, baseUrl: string) {
	const result = await engineWith(apiKey, baseUrl).credentialTest({
		type: NODE_TYPE,
		method: 'testChatCompletionsApi',
		credentialType: 'chatCompletionsApi',
		data: { apiKey, baseUrl },
	});
	expect(result.status).toBe('Error');
	return result;
}

/** The model list and the credential test, each with the console captured. */
async function expectListAndTestHideKey(apiKey: string, baseUrl: string): Promise<void> {
	await expectNoLeak(apiKey, () => failedModelList(apiKey, baseUrl));
	await expectNoLeak(apiKey, () => failedCredentialTest(apiKey, baseUrl));
}

const onErrorSettings = [
	{},
	{ onError: 'continueRegularOutput' },
	{ onError: 'continueErrorOutput' },
] as const;

/** Runs one item once per On Error setting (each an error path: Stop Workflow fails the run); returns every run. */
async function runEveryWay(
	apiKey: string,
	baseUrl: string,
	parameters: INodeParameters,
): Promise<RunNodeResult[]> {
	const runs = [];
	for (const settings of onErrorSettings) {
		runs.push(
			await engineWith(apiKey, baseUrl).runNode({
				type: NODE_TYPE,
				parameters,
				items: jsonItems({}),
				settings,
			}),
		);
	}
	expect(runs[0].status).toBe('error');
	return runs;
}

const chat = (model: string, options: Record<string, NodeParameterValue> = {}) =>
	simpleParameters('Hello', model, { options: { ...QUICK_RETRIES, ...options } });

describe('the check itself', () => {
	test('sees the key in the capture and in a result when it is there', async () => {
		const stop = startCapture();
		console.log(`a log line with ${SECRET}`);
		process.stderr.write(`a stderr line with ${SECRET}\n`);
		const log = stop();
		expect(() => expectHidden(SECRET, 'the log', log)).toThrow(/The key shows in the log/);
		expect(log.split(SECRET)).toHaveLength(3);
		const body = await (
			await fetch(`${leaky()}/v1/models`, { headers: { Authorization: `Bearer ${SECRET}` } })
		).text();
		expect(() => expectHidden(SECRET, 'the result', reveal(new Error(body)))).toThrow(
			/The key shows in the result/,
		);
	});
});

describe('a gateway that quotes the key: no output, error or log line shows it', () => {
	test.each(Object.keys(leakyAnswers))('%s, with every On Error setting', async (model) => {
		const stream = model.includes('stream');
		const runs = await expectNoLeak(SECRET, () =>
			runEveryWay(SECRET, `${leaky()}/v1`, chat(model, stream ? { stream: true } : {})),
		);
		expect(runs.map((run) => run.status)).toEqual(['error', 'success', 'success']);
	});

	test('the model list and the credential test', async () => {
		await expectListAndTestHideKey(SECRET, `${leaky()}/v1`);
		await expectListAndTestHideKey(SECRET, `${leaky()}/text/v1`);
	});
});

describe('the local service and the network: no output, error or log line shows the key', () => {
	test('a wrong key, with every On Error setting, the model list and the credential test', async () => {
		await expectNoLeak(SECRET, () => runEveryWay(SECRET, service().baseUrl, chat('echo-1')));
		await expectListAndTestHideKey(SECRET, service().baseUrl);
	});

	test.each([
		...faultModels.map((model) => [model, keys.faults]),
		['echo-1', keys.expired],
		['echo-1', keys.broke],
		['echo-pro', keys.default],
	])('%s with the key %s', async (model, apiKey) => {
		await expectNoLeak(apiKey, () => runEveryWay(apiKey, service().baseUrl, chat(model)));
	});

	test.each([
		['a connection reset', { reset: true }, {}],
		['a timeout', { slow_ms: 1000 }, { timeout: 200 }],
	])('%s', async (_name, knobs, options) => {
		const parameters = chat('echo-1', {
			extraBody: JSON.stringify({ x_local: knobs }),
			...options,
		});
		await expectNoLeak(keys.default, () =>
			runEveryWay(keys.default, service().baseUrl, parameters),
		);
	});

	test('connection refused: the run, the model list and the credential test', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
		await expectNoLeak(SECRET, () => runEveryWay(SECRET, baseUrl, chat('echo-1')));
		await expectListAndTestHideKey(SECRET, baseUrl);
	});

	test('bad input and a bad credential', async () => {
		for (const options of [{ temperature: 3 }, { extraBody: '{seed: 7}' }]) {
			await expectNoLeak(SECRET, () =>
				runEveryWay(SECRET, service().baseUrl, chat('echo-1', options)),
			);
		}
		await expectNoLeak(SECRET, () => runEveryWay(SECRET, 'localhost/v1', chat('echo-1')));
		const withLineBreak = `${SECRET.slice(0, 18)}\n${SECRET.slice(18)}`;
		await expectNoLeak(withLineBreak, () =>
			runEveryWay(withLineBreak, service().baseUrl, chat('echo-1')),
		);
		expect(await service().requests()).toEqual([]);
	});
});

describe('the capture', () => {
	test("saw n8n's debug log of the runs above, so their checks could fail", () => {
		expect(capturedLog()).toContain('Running node "Chat Completion" started');
	});
});
