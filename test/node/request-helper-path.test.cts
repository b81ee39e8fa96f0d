/**
 * Where n8n's own AI transport is not there (an n8n without the AI node SDK, or one whose SDK model no
 * longer holds a dispatcher), both nodes send through n8n's request helper as before: here the SDK's OpenAI
 * model comes without its dispatcher. The replies are the same; every request has its own connection (the
 * helper's), which shows that this path was taken; the key goes on to the same origin only.
 */
import type { supplyModel } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { runProbe } from './chat-model-probe.cts';
import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

jest.mock('@n8n/ai-node-sdk', () => {
	const sdk = jest.requireActual<{ supplyModel: typeof supplyModel }>('@n8n/ai-node-sdk');
	return {
		...sdk,
		supplyModel: (...[context, model]: Parameters<typeof supplyModel>) =>
			'type' in model && model.type === 'openai'
				? { response: { clientConfig: {} } }
				: sdk.supplyModel(context, model),
	};
});

const service = useLocalService();

async function chatCompletion(
	baseUrl: string,
	count: number,
	stream = false,
	credential: IDataObject = {},
) {
	return await engineWith(keys.default, baseUrl, credential).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('Hello there', 'echo-1', {
			options: { concurrency: 1, maxRetries: 0, stream },
		}),
		items: jsonItems(...Array.from({ length: count }, () => ({}))),
	});
}

const connectionsSeen = async () =>
	new Set((await service().requests()).map((request) => request.connection));

test.each([
	['not streamed', false],
	['streamed', true],
])(
	'the Chat Completion node (%s): replies as always, a connection per request',
	async (_way, stream) => {
		const { outputs, error } = await chatCompletion(service().baseUrl, 3, stream);
		expect(error).toBeUndefined();
		expect(outputs[0].map((item) => item.json.content)).toEqual(Array(3).fill('Hello there'));
		expect((await connectionsSeen()).size).toBe(3);
	},
);

test('the Chat Model: replies as always, a connection per request', async () => {
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl: service().baseUrl,
		model: 'echo-1',
		script: async (model) => {
			const texts = [];
			for (const question of ['one', 'two']) texts.push((await model.invoke(question)).text);
			return { texts };
		},
	});
	expect(run.output).toEqual({ texts: ['one', 'two'] });
	expect((await connectionsSeen()).size).toBe(2);
});

test('a redirect to another origin does not carry the key there', async () => {
	const { error } = await chatCompletion(`${service().origin}/__redirect/307/other-origin/v1`, 1);
	expect(error?.message).toBe('The service rejected the API key (item 0)');
	const requests = await service().requests();
	expect(requests.map((request) => request.headers.host)).toEqual([
		new URL(service().origin).host,
		new URL(service().origin.replace('127.0.0.1', 'localhost')).host,
	]);
	expect(requests[1].headers.authorization).toBeUndefined();
});

test("a redirect outside the credential's allowed domains is refused in n8n's words, and not followed", async () => {
	const { error } = await chatCompletion(
		`${service().origin}/__redirect/307/other-origin/v1`,
		1,
		false,
		{ allowedHttpRequestDomains: 'domains', allowedDomains: 'example.com' },
	);
	expect(error?.message).toMatch(
		/Domain not allowed: This credential is restricted from accessing localhost/,
	);
	const requests = await service().requests();
	expect(requests.map((request) => request.headers.host)).toEqual([new URL(service().origin).host]);
});
