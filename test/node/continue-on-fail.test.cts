/**
 * 100 items of which 20 fail in ten different ways (bad input, a model outside the key's group, fault
 * models that are never retried): with "On Error: Continue" every failure is its own error item and
 * the items around it are unaffected, in input order, each paired with its input item. (An answer that
 * holds for the whole key, the balance or a refused key, ends the run's asking: lasting-answers.test.cts.)
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

interface Failure {
	item: IDataObject;
	message: (baseUrl: string) => string;
	/** Refused before sending, so the service never sees it. */
	badInput?: boolean;
}

const failures: Failure[] = [
	{
		item: { model: 'echo-pro' },
		message: () => 'Model "echo-pro" is not available to this API key',
	},
	{
		item: { model: 'fault-503-one-api-no-channel' },
		message: () =>
			'Model "fault-503-one-api-no-channel" is not available to this API key\'s group: the gateway has no channel for it',
	},
	{
		item: { model: 'no-such-model' },
		message: () => 'Model "no-such-model" does not exist on this service',
	},
	{
		item: { model: 'fault-text-404' },
		message: (baseUrl) => `The service has no such endpoint under "${baseUrl}" (404)`,
	},
	{
		item: { model: 'fault-404-not-pulled' },
		message: () => 'Model "fault-404-not-pulled" does not exist on this service',
	},
	{
		item: { model: 'fault-503-model-not-found' },
		message: () => 'Model "fault-503-model-not-found" is not available to this API key',
	},
	{
		item: { model: 'fault-numeric-code' },
		message: () => 'The service rejected the request: Invalid parameter',
	},
	{ item: { t: 3 }, message: () => 'Temperature: must be from 0 to 2, got 3', badInput: true },
	{ item: { q: '' }, message: () => 'User Prompt: is empty', badInput: true },
	{ item: { model: 'echo 1' }, message: () => 'Model: "echo 1" contains spaces', badInput: true },
];

const COUNT = 100;
/** Items 3, 8, 13, … 98 fail: each failure twice. */
const failureOf = (index: number) =>
	index % 5 === 3 ? failures[((index - 3) / 5) % failures.length] : undefined;
const question = (index: number) => `Question ${index}`;
const items = jsonItems(
	...Array.from({ length: COUNT }, (_, index) => ({
		q: question(index),
		model: 'echo-1',
		t: 0.5,
		...failureOf(index)?.item,
	})),
);
const failed = items.map((_, index) => index).filter((index) => failureOf(index) !== undefined);
const replied = items.map((_, index) => index).filter((index) => failureOf(index) === undefined);
const errorMessage = (index: number) =>
	`${failureOf(index)!.message(service().baseUrl)} (item ${index})`;

async function run(onError: 'continueRegularOutput' | 'continueErrorOutput', concurrency: number) {
	const { outputs, error } = await engineWith(keys.faults, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters('={{ $json.q }}', '={{ $json.model }}', {
			options: { temperature: '={{ $json.t }}', concurrency },
		}),
		items,
		settings: { onError },
	});
	expect(error).toBeUndefined();
	// Every item but the bad input reached the service exactly once: none of these failures is retried.
	const badInput = failed.filter((index) => failureOf(index)!.badInput).length;
	expect(await service().requests()).toHaveLength(COUNT - badInput);
	return outputs;
}

const pairs = (output: INodeExecutionData[]) => output.map((item) => item.pairedItem);
const expectedPairs = (indexes: number[]) => indexes.map((item) => ({ item }));

/** An error item's kind: its message without "(item N)", and the HTTP status (out of balance is a 402 or a 429). */
const kindOf = ({ json }: INodeExecutionData) =>
	`${String(json.error).replace(/ \(item \d+\)$/, '')} ${(json.error_details as IDataObject).http_code ?? ''}`;

describe('20 failing items among 100 with "On Error: Continue"', () => {
	test.each([1, 8])(
		'regular output, concurrency %i: 80 replies and 20 error items in input order',
		async (concurrency) => {
			const [output] = await run('continueRegularOutput', concurrency);
			// What the node returned: 100 items, 20 of them errors of ten kinds, each kind twice.
			const errors = output.filter((item) => item.json.error !== undefined);
			expect([output.length, errors.length]).toEqual([COUNT, 20]);
			expect(new Set(errors.map(kindOf)).size).toBe(10);
			expect(
				output.filter((item) => item.json.error === undefined && item.json.content !== undefined),
			).toHaveLength(80);
			expect(output.map((item) => item.json.error ?? item.json.content)).toEqual(
				items.map((_, index) => (failureOf(index) ? errorMessage(index) : question(index))),
			);
			expect(pairs(output)).toEqual(expectedPairs(items.map((_, index) => index)));
			for (const index of failed) {
				expect((output[index].json.error_details as IDataObject).description).toEqual(
					expect.any(String),
				);
			}
		},
	);

	test.each([1, 8])(
		'error output, concurrency %i: 80 replies on Reply, 20 errors on the error output',
		async (concurrency) => {
			const [success, errors] = await run('continueErrorOutput', concurrency);
			expect([success.length, errors.length]).toEqual([80, 20]);
			expect(success.map((item) => item.json.content)).toEqual(replied.map(question));
			expect(pairs(success)).toEqual(expectedPairs(replied));
			expect(errors.map((item) => item.json.error)).toEqual(failed.map(errorMessage));
			expect(pairs(errors)).toEqual(expectedPairs(failed));
		},
	);
});
