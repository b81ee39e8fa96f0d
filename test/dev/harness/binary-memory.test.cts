import { createEngine } from '../../../dev/n8n-core/harness.cts';
import { fixtureTypes } from './fixtures/index.cts';

process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'default';

test('keeps binary data in the items in n8n\'s in-memory ("default") mode', async () => {
	const engine = createEngine(fixtureTypes());
	const { outputs } = await engine.runNode({
		type: 'fixture',
		parameters: { operation: 'binary' },
		items: [
			{
				json: {},
				binary: { data: { data: Buffer.from('hello').toString('base64'), mimeType: 'text/plain' } },
			},
		],
	});

	const [item] = outputs[0];
	expect(item.json).toEqual({ text: 'hello', mimeType: 'text/plain' });
	expect(item.binary?.data).not.toHaveProperty('id');
	expect(Buffer.from(item.binary?.data.data ?? '', 'base64').toString()).toBe('HELLO');
});
