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

/** One request at a time: the service's log is then in the items' order. */
const inOrder = { options: { concurrency: 1 } };

/** Per item: the prompt the service received, or that the item failed (with the start of its message). */
async function outcome(prompt: string) {
	await service().clearRequests();
	const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(prompt, 'echo-1', inOrder),
		items: jsonItems(...items),
		settings: { onError: 'continueRegularOutput' },
	});
	const sent = (await service().requests()).map(
		(request) => (request.body as { messages: Array<{ content: unknown }> }).messages[0].content,
	);
	let next = 0;
	return outputs[0].map((item) =>
		item.json.error === undefined
			? { sent: sent[next++] }
			: { failed: String(item.json.error).split(':')[0] },
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

describe('Messages rows that are fields of the item', () => {
	test('give what n8n gives for the same rows written so that n8n resolves them', async () => {
		const rows = (user: string) => ({
			promptType: 'messages',
			messages: {
				values: [
					{ role: 'system', content: 'Be brief' },
					{ role: 'user', content: user },
				],
			},
		});
		const sent = async (user: string) => {
			await service().clearRequests();
			const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
				type: NODE_TYPE,
				parameters: { ...simpleParameters('', 'echo-1', inOrder), ...rows(user) },
				items: jsonItems(...items),
				settings: { onError: 'continueRegularOutput' },
			});
			const bodies = (await service().requests()).map((request) => request.body);
			return { failed: outputs[0].map((item) => item.json.error !== undefined), bodies };
		};
		const expected = await sent('={{ ($json.p) }}');
		expect(expected.bodies.length).toBeGreaterThan(0);
		expect(await sent('={{ $json.p }}')).toEqual(expected);
	});
});

describe('a hidden parameter whose default reads the item', () => {
	test("Tool Call ID's and Tool Result's defaults ({{ $json.id }}, {{ $json.result }}) are read for each item, not once", async () => {
		const call = (id: string, city: string) => ({
			id,
			type: 'function',
			function: { name: 'weather', arguments: JSON.stringify({ city }) },
		});
		const messages = [
			{ role: 'user', content: 'Weather in Oslo and Rome?' },
			{
				role: 'assistant',
				content: null,
				tool_calls: [call('call_a', 'Oslo'), call('call_b', 'Rome')],
			},
		];
		// Tools None hides Tool Call ID and Tool Result: their defaults read each item's id and result.
		const { outputs, error } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: {
				...simpleParameters(''),
				promptType: 'json',
				messagesJson: '={{ $json.messages }}',
			},
			// Objects: n8n resolves them for each item (only text is read from the item directly).
			items: jsonItems(
				{ messages, id: 'call_a', result: { sky: 'snow' } },
				{ messages, id: 'call_b', result: { sky: 'sun' } },
			),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(1);
		const [request] = await service().requests();
		const answers = (
			request.body as { messages: Array<{ role: string; tool_call_id?: string; content?: string }> }
		).messages
			.filter((message) => message.role === 'tool')
			.map((message) => [message.tool_call_id, message.content]);
		expect(answers).toEqual([
			['call_a', '{"sky":"snow"}'],
			['call_b', '{"sky":"sun"}'],
		]);
	});
});
