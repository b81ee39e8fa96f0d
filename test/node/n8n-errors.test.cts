/**
 * Errors n8n raises itself (an expression it cannot resolve, a missing credential) pass through with
 * n8n's message, description, parameter and item, as n8n's own nodes show them, not as an "unexpected
 * failure" of this node; nothing is sent. SSRF blocks are in ssrf.test.cts (they need n8n configured first).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node';
import { createEngine } from '../../dev/n8n-core/harness.cts';
import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

async function run(
	parameters: INodeParameters,
	onError?: 'continueRegularOutput' | 'continueErrorOutput',
	count = 2,
) {
	return await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters,
		items: jsonItems({ question: 'Hi' }, { question: 'Hello' }).slice(0, count),
		settings: onError ? { onError } : {},
	});
}

describe("an expression n8n cannot resolve keeps n8n's words, the parameter and the item", () => {
	test('a node that does not exist, with Stop Workflow', async () => {
		const { error, status } = await run(
			simpleParameters('={{ $("Nope").item.json.question }}'),
			undefined,
			1,
		);
		expect(status).toBe('error');
		expect(error).toMatchObject({
			message: "Referenced node doesn't exist",
			context: expect.objectContaining({
				parameter: 'prompt',
				itemIndex: 0,
				nodeCause: 'Nope',
				descriptionKey: 'nodeNotFound',
			}),
		});
		expect(error?.description).toBe(
			"Check the expression in User Prompt: Referenced node doesn't exist.",
		);
		expect(await service().requests()).toEqual([]);
	});

	test('with Stop Workflow, several items fail as one error that names each and keeps the parameter', async () => {
		const { error } = await run(simpleParameters('={{ $("Nope").item.json.question }}'));
		expect(error?.message).toBe(
			"2 items are invalid, so nothing was sent: items 0, 1: Referenced node doesn't exist",
		);
		expect(error?.description).toMatch(
			/^Items 0, 1: Referenced node doesn't exist\. Check the expression in User Prompt: Referenced node doesn't exist\./,
		);
		expect(error?.context).toMatchObject({ parameter: 'prompt', itemIndex: 0 });
		expect(await service().requests()).toEqual([]);
	});

	test('broken syntax, with On Error: Continue: each item says so, with the field', async () => {
		const { outputs, status } = await run(
			simpleParameters('={{ $json.question. }}'),
			'continueRegularOutput',
		);
		expect(status).toBe('success');
		expect(outputs[0].map((item) => item.json.error)).toEqual([
			'invalid syntax (item 0)',
			'invalid syntax (item 1)',
		]);
		expect((outputs[0][0].json.error_details as IDataObject).description).toBe(
			'Check the expression in User Prompt: invalid syntax.',
		);
		expect(await service().requests()).toEqual([]);
	});

	test("with the error output, each item goes there with n8n's message", async () => {
		const { outputs } = await run(
			simpleParameters('={{ $("Nope").item.json.question }}'),
			'continueErrorOutput',
		);
		expect(outputs[0]).toEqual([]);
		expect(outputs[1].map((item) => [item.json.error, item.pairedItem])).toEqual([
			["Referenced node doesn't exist", { item: 0 }],
			["Referenced node doesn't exist", { item: 1 }],
		]);
		expect(await service().requests()).toEqual([]);
	});

	test("in an option: each item fails with n8n's words, and the description names the option", async () => {
		const { error } = await run(
			simpleParameters('hi', 'echo-1', {
				options: { temperature: '={{ $("Nope").item.json.t }}' },
			}),
		);
		expect(error).toMatchObject({
			message:
				"2 items are invalid, so nothing was sent: items 0, 1: Referenced node doesn't exist",
			context: expect.objectContaining({ parameter: 'options', itemIndex: 0 }),
		});
		expect(error?.description).toMatch(/Check the expression in Options > Temperature/);
		expect(await service().requests()).toEqual([]);
	});

	test('in Extra Body, the error names Options > Extra Body, not the collection', async () => {
		const { error } = await run(
			simpleParameters('hi', 'echo-1', {
				options: { temperature: 0.5, extraBody: '={{ {"top_k": 5}}}' },
			}),
		);
		expect(
			JSON.stringify({ message: error?.message, description: error?.description }),
		).not.toMatch(/"options"/);
		expect(error?.description).toMatch(/Options > Extra Body/);
		expect(error?.context).toMatchObject({ parameter: 'options.extraBody', itemIndex: 0 });
		expect(await service().requests()).toEqual([]);
	});

	test('only the items whose expression fails: the others are answered', async () => {
		const { outputs } = await run(
			simpleParameters('={{ $json.question.toUpperCase() + $json.question.nope.x }}'),
			'continueRegularOutput',
		);
		expect(outputs[0].map((item) => item.json.error)).toEqual([
			expect.stringMatching(/\(item 0\)$/),
			expect.stringMatching(/\(item 1\)$/),
		]);
		expect((outputs[0][0].json.error_details as IDataObject).description).not.toMatch(
			/Unexpected failure/,
		);
	});
});

test("a node without its credential fails with n8n's own message", async () => {
	const engine = createEngine({
		nodeTypes: { [NODE_TYPE]: new ChatCompletion() },
		credentialTypes: { chatCompletionsApi: new ChatCompletionsApi() },
	});
	const { error, status } = await engine.runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello'),
		items: jsonItems({}),
	});
	expect(status).toBe('error');
	expect(error?.message).toMatch(/credentials/i);
	expect(error?.message).not.toMatch(/Unexpected failure/);
	expect(error?.description ?? '').not.toMatch(/Unexpected failure/);
	expect(await service().requests()).toEqual([]);
});
