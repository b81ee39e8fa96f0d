/**
 * A parameter that is exactly one field of the item (`{{ $json.prompt }}`) is read from the item without
 * n8n's per-item expression work: what reaches the service, and which items fail, must be what n8n's own
 * resolution of the same field gives. `({{ ($json.p) }})` is the same field in a form n8n resolves itself.
 */
import type { IDataObject } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const items: IDataObject[] = [
	{ p: 'hello', row: { 'question text': 'why?' } },
	{ p: '' },
	{ p: '={{ 1 + 1 }}', row: {} },
	{ p: 42 },
	{ p: null },
	{},
	{ p: { nested: 'object' } },
	{ p: ['a'] },
	{ p: true },
	{ p: 'ünïcödé ✓\nsecond line', row: { 'question text': '' } },
];

/** Per item: the prompt the service received, or that the item failed (with the start of its message). */
async function outcome(prompt: string) {
	await service().clearRequests();
	const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(prompt),
		items: jsonItems(...items),
		settings: { onError: 'continueRegularOutput' },
	});
	const sent = (await service().requests()).map(
		(request) => (request.body as { messages: Array<{ content: unknown }> }).messages[0].content,
	);
	let next = 0;
	return outputs[0].map((item) =>
		item.json.error === undefined ? { sent: sent[next++] } : { failed: String(item.json.error).split(':')[0] },
	);
}

describe('a prompt that is one field of the item', () => {
	test.each([
		['$json.p', '($json.p)'],
		['$json.row["question text"]', '($json.row["question text"])'],
	])('{{ %s }} gives what n8n gives for {{ %s }}', async (field, resolvedByN8n) => {
		const expected = await outcome(`={{ ${resolvedByN8n} }}`);
		expect(expected.some((entry) => 'sent' in entry)).toBe(true);
		expect(await outcome(`={{ ${field} }}`)).toEqual(expected);
	});
});
