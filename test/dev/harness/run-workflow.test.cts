import type { INode } from 'n8n-workflow';

import { createEngine, type Engine } from '../../../dev/n8n-core/harness.cts';
import { fixtureTypes, GOOD_KEY, startServer } from './fixtures/index.cts';

let server: Awaited<ReturnType<typeof startServer>>;
let engine: Engine;
beforeAll(async () => {
	server = await startServer();
	engine = createEngine({
		...fixtureTypes(),
		credentials: { fixtureApi: { baseUrl: server.baseUrl, apiKey: GOOD_KEY } },
	});
});
afterAll(async () => await server.close());

/** A node as n8n exports it. */
const node = (
	name: string,
	parameters: INode['parameters'],
	extra: Partial<INode> = {},
): INode => ({
	id: name,
	name,
	type: 'fixture',
	typeVersion: 2,
	position: [0, 0],
	parameters,
	credentials: { fixtureApi: { id: 'cred-1', name: 'Fixture account' } },
	...extra,
});
const modelFrom = (expression: string) => ({
	model: { __rl: true, mode: 'id', value: expression },
});

describe('runWorkflow', () => {
	test('passes items along connections, including the error output', async () => {
		const { runData, status } = await engine.runWorkflow({
			workflow: {
				nodes: [
					node('Call', { path: '={{ $json.path }}' }, { onError: 'continueErrorOutput' }),
					node('On success', modelFrom('={{ $json.path }}')),
					node('On error', modelFrom('={{ $json.error }}')),
				],
				connections: {
					Call: {
						main: [
							[{ node: 'On success', type: 'main', index: 0 }],
							[{ node: 'On error', type: 'main', index: 0 }],
						],
					},
				},
			},
			startNode: 'Call',
			items: [{ json: { path: '/echo' } }, { json: { path: '/status/429' } }],
		});

		const bodies = (name: string) => runData[name][0].data?.main[0]?.map(({ json }) => json.body);
		expect(status).toBe('success');
		expect(bodies('On success')).toEqual([{ model: '/echo', item: 0, version: 2 }]);
		expect(bodies('On error')).toEqual([
			{ model: expect.stringContaining('too many requests'), item: 0, version: 2 },
		]);
	});

	test('reads binary input given as base64 and stores binary output where the next node reads it', async () => {
		const { runData } = await engine.runWorkflow({
			workflow: {
				nodes: [node('Read', { operation: 'binary' }), node('Read again', { operation: 'binary' })],
				connections: { Read: { main: [[{ node: 'Read again', type: 'main', index: 0 }]] } },
			},
			startNode: 'Read',
			items: [
				{
					json: {},
					binary: {
						data: {
							data: Buffer.from('hello').toString('base64'),
							mimeType: 'text/plain',
							fileName: 'hello.txt',
						},
					},
				},
			],
		});

		const [read] = runData.Read[0].data?.main[0] ?? [];
		const [readAgain] = runData['Read again'][0].data?.main[0] ?? [];
		expect(read.json).toEqual({ text: 'hello', mimeType: 'text/plain' });
		expect(read.binary?.data).toMatchObject({
			id: expect.stringMatching(/^filesystem-v2:/),
			data: 'filesystem-v2',
			fileName: 'out.txt',
		});
		expect(readAgain.json).toEqual({ text: 'HELLO', mimeType: 'text/plain' });
	});
});
