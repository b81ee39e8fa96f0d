import { createEngine, type Engine } from '../../../dev/n8n-core/harness.cts';
import { fixtureTypes, GOOD_KEY, startServer } from './fixtures/index.cts';

let server: Awaited<ReturnType<typeof startServer>>;
const engineWithKey = (apiKey: string): Engine =>
	createEngine({
		...fixtureTypes(),
		credentials: { fixtureApi: { baseUrl: server.baseUrl, apiKey } },
	});
beforeAll(async () => (server = await startServer()));
afterAll(async () => await server.close());

describe('listSearch', () => {
	test('runs the method with the stored credentials and its authentication', async () => {
		const result = await engineWithKey(GOOD_KEY).listSearch({
			type: 'fixture',
			method: 'searchModels',
			filter: 'alpha',
		});

		expect(result).toEqual({
			results: [
				{ name: 'alpha', value: 'alpha' },
				{ name: 'alphabet', value: 'alphabet' },
			],
			paginationToken: 'page-2',
		});
	});

	test('rejects with the NodeApiError of a failed request', async () => {
		await expect(
			engineWithKey('sk-example-wrong').listSearch({ type: 'fixture', method: 'searchModels' }),
		).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: '401',
			description: 'Incorrect API key provided',
		});
	});
});

describe('credentialTest', () => {
	const test = (apiKey: string) =>
		createEngine(fixtureTypes()).credentialTest({
			type: 'fixture',
			method: 'testFixtureApi',
			credentialType: 'fixtureApi',
			data: { baseUrl: server.baseUrl, apiKey },
		});

	it('passes the credential data to the method', async () => {
		expect(await test(GOOD_KEY)).toEqual({ status: 'OK', message: 'Connection successful' });
	});

	it('returns what the method reports for rejected data', async () => {
		expect(await test('sk-example-wrong')).toEqual({
			status: 'Error',
			message: expect.stringContaining('401'),
		});
	});
});
