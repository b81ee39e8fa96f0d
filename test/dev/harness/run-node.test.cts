import type { StructuredChunk } from 'n8n-workflow';

import { createEngine, type Engine } from '../../../dev/n8n-core/harness.cts';
import { fixtureTypes, GOOD_KEY, startServer } from './fixtures/index.cts';

let server: Awaited<ReturnType<typeof startServer>>;
let engine: Engine;
beforeAll(async () => {
	server = await startServer();
	engine = createEngine({
		...fixtureTypes(),
		credentials: {
			fixtureApi: { baseUrl: server.baseUrl, apiKey: GOOD_KEY },
			fixtureTokenApi: { baseUrl: server.baseUrl, token: 'token-example' },
		},
	});
});
afterAll(async () => await server.close());

const failingItems = [{ json: { path: '/echo' } }, { json: { path: '/status/429' } }];

describe('runNode', () => {
	test('sends requests over the network with the generic authentication of the credential', async () => {
		const { outputs, status, error } = await engine.runNode({
			type: 'fixture',
			parameters: {},
			items: [{ json: {} }, { json: {} }],
		});

		expect({ status, error }).toEqual({ status: 'success', error: undefined });
		expect(outputs).toHaveLength(1);
		expect(outputs[0].map(({ json }) => json)).toEqual(
			[0, 1].map((item) => ({
				method: 'POST',
				path: '/echo',
				query: { org: 'example-org' },
				authorization: `Bearer ${GOOD_KEY}`,
				body: { model: '', item, version: 2 },
			})),
		);
		expect(outputs[0].map(({ pairedItem }) => pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('applies a function authentication, resolves expressions against the items and honours typeVersion', async () => {
		const { outputs } = await engine.runNode({
			type: 'fixture',
			typeVersion: 1,
			parameters: {
				authentication: 'fixtureTokenApi',
				path: '={{ $json.path }}',
				model: { __rl: true, mode: 'id', value: '={{ $json.model }}' },
			},
			items: [{ json: { path: '/echo/chat', model: 'alpha' } }],
		});

		expect(outputs[0][0].json).toMatchObject({
			path: '/echo/chat',
			token: 'token-example',
			body: { model: 'alpha', version: 1 },
		});
		expect(outputs[0][0].json).not.toHaveProperty('authorization');
	});

	test('stops the workflow on an API error by default, with the NodeApiError n8n recorded', async () => {
		const { outputs, status, error } = await engine.runNode({
			type: 'fixture',
			parameters: { path: '={{ $json.path }}' },
			items: failingItems,
		});

		expect(status).toBe('error');
		expect(outputs).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '429',
			message: expect.stringContaining('too many requests'),
			description: 'Status 429 as requested',
			context: { data: { error: { message: 'Status 429 as requested' } } },
		});
	});

	test.each([{ onError: 'continueRegularOutput' as const }, { continueOnFail: true }])(
		'keeps failed items in the main output with %o',
		async (settings) => {
			const { outputs, status } = await engine.runNode({
				type: 'fixture',
				parameters: { path: '={{ $json.path }}' },
				items: failingItems,
				settings,
			});

			expect(status).toBe('success');
			expect(outputs).toHaveLength(1);
			expect(outputs[0][0].json).toMatchObject({ path: '/echo' });
			expect(outputs[0][1]).toEqual({
				json: { error: expect.stringContaining('too many requests') },
				pairedItem: { item: 1 },
			});
		},
	);

	test('routes failed items to the error output with continueErrorOutput', async () => {
		const { outputs, status } = await engine.runNode({
			type: 'fixture',
			parameters: { path: '={{ $json.path }}' },
			items: failingItems,
			settings: { onError: 'continueErrorOutput' },
		});

		expect(status).toBe('success');
		expect(outputs).toHaveLength(2);
		expect(outputs[0].map(({ json }) => json.path)).toEqual(['/echo']);
		expect(outputs[1]).toEqual([
			{ json: { error: expect.stringContaining('too many requests') }, pairedItem: { item: 1 } },
		]);
	});

	test('cancels the execution and its request when the signal aborts', async () => {
		const hang = server.expectHang();
		const controller = new AbortController();
		const run = engine.runNode({
			type: 'fixture',
			parameters: { path: '/hang' },
			signal: controller.signal,
		});
		await hang.received;
		controller.abort();

		expect((await run).status).toBe('canceled');
		await hang.closed;
	});

	test('does not run the node when the signal is already aborted', async () => {
		const { outputs, status } = await engine.runNode({
			type: 'fixture',
			parameters: { path: '/hang' },
			signal: AbortSignal.abort(),
		});

		expect({ outputs, status }).toEqual({ outputs: [], status: 'canceled' });
	});

	test('streams chunks when asked to, like a Chat Trigger in streaming mode', async () => {
		const chunks: StructuredChunk[] = [];
		const streamed = await engine.runNode({
			type: 'fixture',
			parameters: { operation: 'stream' },
			onChunk: (chunk) => chunks.push(chunk),
		});
		const plain = await engine.runNode({ type: 'fixture', parameters: { operation: 'stream' } });

		expect(chunks.map(({ type, content }) => [type, content])).toEqual([
			['begin', undefined],
			['item', 'Hel'],
			['item', 'lo'],
			['end', undefined],
		]);
		expect(chunks[0].metadata).toMatchObject({ nodeName: 'Fixture', itemIndex: 0 });
		expect(streamed.outputs[0][0].json).toEqual({ streamed: true });
		expect(plain.outputs[0][0].json).toEqual({ streamed: false });
	});
});
