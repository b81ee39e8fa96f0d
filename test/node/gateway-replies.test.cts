/**
 * A gateway we did not write, as it answers (Portkey's shapes, test/support/portkey-replies.cts, from a small
 * loopback gateway): a 400 that names a header is the credential's Extra Headers' business, and a gateway that
 * could not reach the service behind it says so in each of its three body shapes.
 */
import type { IDataObject } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { useLeakyGateway } from '../support/leaky-gateway.cts';
import { portkeyReplies, UPSTREAM } from '../support/portkey-replies.cts';
import { keys } from '../support/service.cts';

const gateway = useLeakyGateway(portkeyReplies);

/** One item through the gateway with On Error: Continue, no retries: its output item's json. */
async function itemFor(model: string): Promise<IDataObject> {
	const { outputs, error } = await engineWith(keys.default, `${gateway()}/v1`).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello there', model, { options: { maxRetries: 0 } }),
		items: jsonItems({}),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(error).toBeUndefined();
	return outputs[0][0].json;
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
		const json = await itemFor(model);
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
