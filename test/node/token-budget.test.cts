/**
 * Options > Token Budget in the Chat Completion node, through n8n-core's engine: every attempt is checked
 * before it is sent, only what the budget left pays for is in flight, the items not sent fail in order with
 * the run's real spend and how to raise it; under Stop Workflow the run stops and says what it threw away.
 * The local service counts words as tokens: "one two three" echoed is 3 + 3 = 6 tokens.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const PROMPT = 'one two three';
const items = (count: number) => jsonItems(...Array.from({ length: count }, (_, n) => ({ n })));

async function run(
	count: number,
	options: INodeParameters,
	onError?: 'continueRegularOutput',
	key = keys.default,
) {
	return await engineWith(key, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(PROMPT, 'echo-1', { options }),
		items: items(count),
		settings: onError === undefined ? {} : { onError },
	});
}

describe('Token Budget', () => {
	test('under Continue: answered items keep their replies, the items not sent become error items in order', async () => {
		const { outputs, error } = await run(
			6,
			{ concurrency: 1, tokenBudget: 15 },
			'continueRegularOutput',
		);
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		// Two replies of 6 tokens leave 3: the next reply would not fit, so the budget is never passed.
		expect(json.slice(0, 2).map((item) => item.content)).toEqual([PROMPT, PROMPT]);
		expect(json.slice(2).map((item) => item.error)).toEqual(
			[2, 3, 4, 5].map(
				(item) =>
					`Not sent: the largest reply so far (6 tokens) does not fit in the 3 tokens left of Options > Token Budget of 15 tokens (the replies received counted 12 tokens) (item ${item})`,
			),
		);
		expect((json[2].error_details as IDataObject).description).toBe(
			'Raise Options > Token Budget above 12, by about 6 tokens for each item not sent (the largest reply so far), or set it to 0 for no budget.',
		);
		expect(await service().requests()).toHaveLength(2);
	});

	test('a 1,000-item batch at Concurrency Auto spends the budget and no more: one request, then what the budget left pays for', async () => {
		const { outputs, error } = await run(1000, { tokenBudget: 60 }, 'continueRegularOutput');
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		expect(json).toHaveLength(1000);
		const answered = json.filter((item) => item.content === PROMPT).length;
		// Every request sent was answered and is in the output: 10 replies of 6 tokens, not a round of 64 more.
		expect(await service().requests()).toHaveLength(answered);
		expect(answered).toBe(10);
		expect(json.slice(0, answered).every((item) => item.content === PROMPT)).toBe(true);
		// The message gives the run's real spend.
		expect(
			json
				.slice(answered)
				.every((item) =>
					/Token Budget of 60 tokens \(the replies received counted 60 tokens\)/.test(
						item.error as string,
					),
				),
		).toBe(true);
	});

	test('replies that grow (a short first item, longer ones after it), at Auto: the spend stays within the budget', async () => {
		const prompts = [
			{ q: 'one' },
			...Array.from({ length: 200 }, () => ({ q: 'one two three four five six' })),
		];
		const { outputs } = await engineWith(keys.default, service().baseUrl).runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ $json.q }}', 'echo-1', { options: { tokenBudget: 200 } }),
			items: jsonItems(...prompts),
			settings: { onError: 'continueRegularOutput' },
		});
		const answered = outputs[0].filter((item) => typeof item.json.content === 'string');
		const spent = answered.reduce(
			(sum, item) => sum + ((item.json.usage as IDataObject).total_tokens as number),
			0,
		);
		// The first reply counts 2 tokens and the others 12: a round sized by the first would spend far more.
		expect(spent).toBeLessThanOrEqual(200);
		expect(spent).toBeGreaterThan(200 - 12);
		expect(await service().requests()).toHaveLength(answered.length);
	});

	test('on a key that answers 429 past 8 requests in flight, at Auto: the retries are checked too, the spend ends at the budget', async () => {
		const { outputs, error } = await run(
			50,
			{ tokenBudget: 150 },
			'continueRegularOutput',
			keys.limited,
		);
		expect(error).toBeUndefined();
		const json = outputs[0].map((item) => item.json);
		const answered = json.filter((item) => item.content === PROMPT).length;
		const { admitted, rejected } = (await service().traffic()).limited;
		expect(admitted).toBe(answered);
		expect(rejected).toBeGreaterThan(0);
		// 150 tokens pay for 25 replies of 6; none is sent beyond them.
		expect(answered * 6).toBeLessThanOrEqual(150);
		expect(answered).toBeGreaterThanOrEqual(24);
		// Items whose request met a 429 may lose their turn to later items: every item not answered says the budget.
		const refused = json.filter((item) => item.content !== PROMPT);
		expect(refused).toHaveLength(50 - answered);
		expect(refused.every((item) => /Token Budget of 150 tokens/.test(item.error as string))).toBe(
			true,
		);
	});

	test('under Stop Workflow: the node stops with the budget error; nothing is sent after it', async () => {
		const { error } = await run(6, { concurrency: 1, tokenBudget: 18 });
		expect(error?.message).toBe(
			'Not sent: this run of the node has spent its Options > Token Budget of 18 tokens (the replies received counted 18 tokens) (item 3)',
		);
		expect(await service().requests()).toHaveLength(3);
	});

	test('under Stop Workflow at Concurrency 3: one request before the first reply; the error says what was sent and thrown away', async () => {
		const { error } = await run(4, {
			...knobs({ slow_ms: 300 }).options,
			concurrency: 3,
			tokenBudget: 6,
		});
		expect(error?.message).toBe(
			'Not sent: this run of the node has spent its Options > Token Budget of 6 tokens (the replies received counted 6 tokens) (item 1)',
		);
		expect(error?.description).toBe(
			'Raise Options > Token Budget above 6, by about 6 tokens for each item not sent (the largest reply so far), or set it to 0 for no budget. The node stopped at this failure (On Error: Stop Workflow): 1 request was sent, and no other request started. The replies received for 1 item are not passed on: On Error: Continue keeps them.',
		);
		expect(await service().requests()).toHaveLength(1);
	});

	test('under Stop Workflow on a rate-limited key at Auto: the run fails at the budget', async () => {
		const { error } = await run(50, { tokenBudget: 60 }, undefined, keys.limited);
		expect(error?.message).toMatch(
			/^Not sent: this run of the node has spent its Options > Token Budget of 60 tokens \(the replies received counted 60 tokens\) \(item 10\)$/,
		);
		expect((await service().traffic()).limited.admitted).toBe(10);
	});

	test('replies without usage (Stream on, Stream Usage off): the run warns above the output that the budget counts nothing', async () => {
		const { outputs, hints } = await run(3, {
			concurrency: 1,
			tokenBudget: 10,
			stream: true,
			streamUsage: false,
		});
		expect(outputs[0].map((item) => item.json.content)).toEqual([PROMPT, PROMPT, PROMPT]);
		expect(hints).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'Token Budget: the service sent a reply without usage, which counts nothing against the budget. With Stream on, switch Options > Stream Usage on (the service then reports usage in the stream).',
			},
		]);
	});

	test('unset or 0: no budget', async () => {
		const { outputs } = await run(4, { concurrency: 1, tokenBudget: 0 });
		expect(outputs[0].map((item) => item.json.content)).toEqual([PROMPT, PROMPT, PROMPT, PROMPT]);
	});
});
