/**
 * A batch whose Model is an expression, under On Error: Stop Workflow: every model it will ask is checked
 * against the key's list (`GET /models`) before anything is sent, so that one bad model ID deep in the
 * batch does not throw away the replies paid for before it.
 */
import type { RecordedRequest } from '../support/service.cts';
import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	simpleParameters,
} from '../support/chat-node.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const chatRequests = (requests: RecordedRequest[]) =>
	requests.filter((request) => request.path.endsWith('/chat/completions'));

async function run(models: string[], onError?: 'continueRegularOutput') {
	return await engineWith(keys.default, service().baseUrl).runNode({
		type: NODE_TYPE,
		parameters: {
			...simpleParameters('={{ $json.q }}', 'echo-1'),
			model: modelFromList('={{ $json.model }}'),
		},
		items: jsonItems(...models.map((model, n) => ({ model, q: `item ${n}` }))),
		settings: onError === undefined ? {} : { onError },
	});
}

test('one model the key cannot call, at item 15 of 20: the run is refused naming the item, no chat request sent', async () => {
	const models = Array.from({ length: 20 }, (_, n) => (n === 15 ? 'echo-pro' : 'echo-1'));
	const { error } = await run(models);
	expect(error?.message).toBe(
		'Model: "echo-pro" is not among the 7 models this API key may call (item 15)',
	);
	expect(error?.description).toMatch(
		/^Check the model ID the expression gives for typos, or pick a model from the list/,
	);
	const requests = await service().requests();
	expect(chatRequests(requests)).toHaveLength(0);
	expect(requests.filter((request) => request.path.endsWith('/models'))).toHaveLength(1);
});

test('every model known: the batch is sent as usual, after one look at the list', async () => {
	const { error, outputs } = await run(['echo-1', 'json-1', 'echo-1']);
	expect(error).toBeUndefined();
	expect(outputs[0]).toHaveLength(3);
	expect(chatRequests(await service().requests())).toHaveLength(3);
});

test('under Continue each item is sent as it is read: the unknown model fails alone, the others answer', async () => {
	const { outputs } = await run(['echo-1', 'echo-pro', 'echo-1'], 'continueRegularOutput');
	expect(outputs[0].map((item) => item.json.error ?? item.json.content)).toEqual([
		'item 0',
		'Model "echo-pro" is not available to this API key (item 1)',
		'item 2',
	]);
});
