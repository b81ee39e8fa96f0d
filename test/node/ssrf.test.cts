/**
 * n8n's SSRF protection on (N8N_SSRF_PROTECTION_ENABLED=true) and the service on a loopback address that
 * is not allowlisted: n8n refuses to send (the service receives nothing), and the user reads n8n's own
 * explanation (what was blocked and what the administrator must allow), not "could not be reached"; it
 * is not retried, and the key shows nowhere.
 */
import '../support/ssrf-protection.cts';

import { inspect } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const BLOCKED = 'The request was blocked because it resolves to a restricted IP address';
const ALLOW =
	/The target 127\.0\.0\.1 is not allowed\..*ask your n8n administrator to allowlist the hostname or IP range/;

test.each([
	['not streamed', {}],
	['streamed', { stream: true }],
])(
	'a chat request (%s) is refused by n8n, in its words, once, and nothing reaches the service',
	async (_name, options) => {
		const started = Date.now();
		const { error, status } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('Hello', 'echo-1', {
				options: { ...options, maxRetries: 3, retryTimeouts: true },
			}),
			items: jsonItems({}),
		});
		expect(status).toBe('error');
		expect(error?.message).toBe(`${BLOCKED} (item 0)`);
		expect(error?.description).toMatch(ALLOW);
		expect(Date.now() - started).toBeLessThan(2000);
		expect(await service().requests()).toEqual([]);
		expect(inspect(error, { depth: null })).not.toContain(keys.default.slice(3, -4));
	},
);

test('with On Error: Continue, every item says so and the run goes on', async () => {
	const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello'),
		items: jsonItems({}, {}),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(outputs[0].map((item) => item.json.error)).toEqual([
		`${BLOCKED} (item 0)`,
		`${BLOCKED} (item 1)`,
	]);
	expect((outputs[0][0].json.error_details as IDataObject).description).toMatch(ALLOW);
	expect(await service().requests()).toEqual([]);
});

test("the model list says why it cannot load, in n8n's words", async () => {
	const failure = await engineWith(keys.default, service().baseUrl)
		.listSearch({ type: NODE_TYPE, method: 'searchModels' })
		.then(
			() => undefined,
			(error: unknown) => error as Error & { description?: string },
		);
	expect(failure?.message).toBe(`Could not load the models: ${BLOCKED}`);
	expect(failure?.description).toMatch(ALLOW);
	expect(await service().requests()).toEqual([]);
});
