/**
 * Options > Token Budget in the Chat Completion node, through n8n-core's engine: once the replies received
 * reach the budget no further request is sent, the items not sent fail in order with what was spent and
 * how to raise it, and the requests already in flight finish. The local service counts words as tokens:
 * "one two three" echoed is 3 + 3 = 6 tokens.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';
import { AUTO } from '../../engine/concurrency/limiter';

const service = useLocalService();

const PROMPT = 'one two three';
const items = (count: number) => jsonItems(...Array.from({ length: count }, (_, n) => ({ n })));

async function run(count: number, options: INodeParameters, onError?: 'continueRegularOutput') {
	return await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(PROMPT, 'echo-1', { options }),
		items: items(count),
		settings: onError === undefined ? {} : { onError },
	});
}

describe('Token Budget', () => {
	test('under Continue: answered items keep their replies, the items not sent become error items in order', async () => {
		const { outputs, error } = await run(6, { concurrency: 1, tokenBudget: 15 }, 'continueRegularOutput');
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		expect(json.slice(0, 3).map((item) => item.content)).toEqual([PROMPT, PROMPT, PROMPT]);
		expect(json.slice(3).map((item) => item.error)).toEqual(
			[3, 4, 5].map(
				(item) =>
					`Not sent: this run of the node has spent its Options > Token Budget of 15 tokens (the replies received counted 18 tokens) (item ${item})`,
			),
		);
		expect((json[3].error_details as IDataObject).description).toBe(
			'Raise Options > Token Budget above 18 (or set it to 0 for no budget) to send the items that were not sent; the items already answered keep their replies.',
		);
		expect(await service().requests()).toHaveLength(3);
	});

	test('a 1,000-item batch at Concurrency Auto stops within the requests in flight when the budget was reached', async () => {
		const { outputs, error } = await run(1000, { tokenBudget: 60 }, 'continueRegularOutput');
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		expect(json).toHaveLength(1000);
		const answered = json.filter((item) => item.content === PROMPT).length;
		const sent = (await service().requests()).length;
		// Every request sent was answered (those in flight finished) and is in the output ...
		expect(answered).toBe(sent);
		// ... the budget's 10 replies, plus at most what was in flight when they came back.
		expect(sent).toBeGreaterThanOrEqual(10);
		expect(sent).toBeLessThanOrEqual(10 + AUTO.max);
		// The answered items come first, in order; every other item says the budget.
		expect(json.slice(0, answered).every((item) => item.content === PROMPT)).toBe(true);
		expect(json.slice(answered).every((item) => /Token Budget of 60 tokens/.test(item.error as string))).toBe(true);
	});

	test('under Stop Workflow: the node stops with the budget error; nothing is sent after it', async () => {
		const { error } = await run(6, { concurrency: 1, tokenBudget: 15 });
		expect(error?.message).toBe(
			'Not sent: this run of the node has spent its Options > Token Budget of 15 tokens (the replies received counted 18 tokens) (item 3)',
		);
		expect(await service().requests()).toHaveLength(3);
	});

	test('under Stop Workflow: requests in flight when the budget is reached finish, not cancelled', async () => {
		const { error } = await run(4, { ...knobs({ slow_ms: 300 }).options, concurrency: 3, tokenBudget: 6 });
		expect(error?.message).toMatch(/Token Budget of 6 tokens \(the replies received counted \d+ tokens\) \(item 3\)/);
		expect(error?.description).not.toMatch(/cancelled/);
		expect(await service().requests()).toHaveLength(3);
		expect((await service().traffic()).default.inFlight).toBe(0);
	});

	test('unset or 0: no budget', async () => {
		const { outputs } = await run(4, { concurrency: 1, tokenBudget: 0 });
		expect(outputs[0].map((item) => item.json.content)).toEqual([PROMPT, PROMPT, PROMPT, PROMPT]);
	});
});
