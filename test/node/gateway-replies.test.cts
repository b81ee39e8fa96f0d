/**
 * A gateway we did not write, as it answers (Portkey's shapes, test/support/portkey-replies.cts, from a small
 * loopback gateway): a 400 that names a header is the credential's Extra Headers' business, a gateway that
 * could not reach the service behind it says so in each of its three body shapes, and the fields Portkey does
 * not forward are named on the reply.
 */
import '../support/debug-log.cts';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { modelOutputs, runProbe } from './chat-model-probe.cts';
import { runOneItem, simpleParameters } from '../support/chat-node.cts';
import { startCapture } from '../support/key-leaks.cts';
import { useLeakyGateway } from '../support/leaky-gateway.cts';
import { portkeyReplies, UPSTREAM } from '../support/portkey-replies.cts';
import { keys, useLocalService } from '../support/service.cts';

const gateway = useLeakyGateway(portkeyReplies);
const service = useLocalService();

/** One item through the gateway with On Error: Continue, no retries: its output item's json. */
async function itemFor(
	model: string,
	options: INodeParameters = {},
	baseUrl = `${gateway()}/v1`,
	credential: IDataObject = {},
): Promise<IDataObject> {
	const parameters = simpleParameters('Hello there', model, {
		options: { maxRetries: 0, ...options },
	});
	return await runOneItem(keys.default, baseUrl, parameters, credential);
}

const description = (json: IDataObject) => (json.error_details as IDataObject).description;

describe('a 400 whose words name a header: the fix is in Extra Headers, not in the node', () => {
	test('a header the gateway requires, named from its words', async () => {
		const json = await itemFor('portkey-no-provider');
		expect(json.error).toBe(
			'The service rejected the request: Either x-portkey-config or x-portkey-provider header is required (item 0)',
		);
		expect(description(json)).toBe(
			'The service answered "Either x-portkey-config or x-portkey-provider header is required" (HTTP 400). The service wants the header x-portkey-provider: add it to the credential\'s Extra Headers, as JSON: {"x-portkey-provider": "openai"}, with the value the service\'s documentation gives.',
		);
		expect(json.error_details).toMatchObject({ http_code: 400 });
	});

	test("a header's value the gateway refuses, in words that do not name it (Portkey's Invalid custom host)", async () => {
		const json = await itemFor('portkey-custom-host');
		expect(json.error).toBe('The service rejected the request: Invalid custom host (item 0)');
		expect(description(json)).toBe(
			'The service answered "Invalid custom host" (HTTP 400). The header x-portkey-custom-host has a value the service does not take: correct it in the credential\'s Extra Headers, as JSON: {"x-portkey-custom-host": "https://api.example.com/v1"}.',
		);
	});
});

describe('a gateway that could not reach the service behind it says so, with the address it tried', () => {
	test.each([
		['{"html-message": ...}', 'portkey-unreached-html-message'],
		['{status, message}', 'portkey-unreached-status-message'],
		['{error: {...}}', 'portkey-unreached-error'],
	])('%s', async (_shape, model) => {
		// Portkey's routing headers, as users set them: the host they name is no secret, and shows.
		const json = await itemFor(model, {}, `${gateway()}/v1`, {
			extraHeaders: JSON.stringify({
				'x-portkey-provider': 'openai',
				'x-portkey-custom-host': `http://${UPSTREAM}/v1`,
			}),
		});
		expect(json.error).toBe(
			`The gateway answered, but could not reach the service behind it at ${UPSTREAM} (ECONNREFUSED) (item 0)`,
		);
		expect(json.error_details).toMatchObject({
			http_code: 500,
			service_message: expect.stringContaining(`connect ECONNREFUSED ${UPSTREAM}`),
		});
		expect(description(json)).toMatch(
			new RegExp(
				`^The service answered ".*fetch failed Cause: Error: connect ECONNREFUSED ${UPSTREAM.replace(/\./g, '\\.')} Name: TypeError" \\(HTTP 500\\)\\. Check that the service behind the gateway runs at ${UPSTREAM.replace(/\./g, '\\.')} and that the gateway is set to its address \\(Portkey: x-portkey-custom-host in the credential's Extra Headers\\), then run again\\.$`,
			),
		);
	});
});

/** Extra Body fields users send to OpenRouter through a gateway, and Prompt Caching's top-level cache_control. */
const DROPPED = {
	extraBody: '{"provider": {"order": ["openai"]}, "top_k": 40, "transforms": ["middle-out"]}',
	promptCaching: 'automatic',
};

const warning = () =>
	`Not forwarded by the gateway: "provider", "top_k", "transforms", "cache_control". Portkey (its x-portkey-* headers are on the reply) passes on to the service behind it only the OpenAI chat fields it knows, so the service never got them. To send them, set the credential's Base URL to its proxy route, which passes the body as it is (${gateway()}/v1/proxy), or leave them out.`;

describe('fields Portkey does not forward are named on the reply', () => {
	test('Chat Completion: the item says which, and how Portkey passes them', async () => {
		const json = await itemFor('portkey-answer', { ...DROPPED, temperature: 0.5 });
		expect(json.content).toBe('Hello there');
		expect(json.warnings).toEqual([warning()]);
	});

	test('Chat Completion: only OpenAI chat fields Portkey knows, no warning', async () => {
		const json = await itemFor('portkey-answer', { temperature: 0.5, maxTokens: 100 });
		expect(json.content).toBe('Hello there');
		expect(json).not.toHaveProperty('warnings');
	});

	test("through Portkey's proxy route, which passes the body as it is: no warning", async () => {
		const json = await itemFor('portkey-answer', DROPPED, `${gateway()}/v1/proxy`);
		expect(json.content).toBe('Hello there');
		expect(json).not.toHaveProperty('warnings');
	});

	test('a reply without x-portkey-* headers (our local service): the same fields, no warning', async () => {
		const json = await itemFor('echo-1', DROPPED, service().baseUrl);
		expect(json.content).toBe('Hello there');
		expect(json).not.toHaveProperty('warnings');
		const [request] = await service().requests();
		expect(request.body).toMatchObject({ top_k: 40, cache_control: { type: 'ephemeral' } });
	});

	test("the Chat Model: in the generation's info and n8n's log", async () => {
		const stop = startCapture();
		let log = '';
		const run = await runProbe({
			apiKey: keys.default,
			baseUrl: `${gateway()}/v1`,
			model: 'portkey-answer',
			options: { ...DROPPED, maxRetries: 0 },
			script: async (model) => ({ text: (await model.invoke('Hello there')).text }),
		}).finally(() => (log = stop()));
		expect(run.error).toBeUndefined();
		const [output] = modelOutputs(run.runData);
		const [[generation]] = (output.response as { generations: IDataObject[][] }).generations;
		expect(generation.generationInfo).toMatchObject({ warnings: [warning()] });
		expect(log).toContain(warning());
	});
});
