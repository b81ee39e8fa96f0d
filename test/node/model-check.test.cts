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

async function run(models: string[], onError?: 'continueRegularOutput', key = keys.default) {
	return await engineWith(key, service().baseUrl).runNode({
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

test("OpenRouter's variants of a listed model and IDs a listed wildcard route covers are sent; what no entry covers is refused", async () => {
	// The routes key lists echo-1 and the route local/* (LiteLLM's wildcard routes), nothing else.
	const served = await run(
		['echo-1:online', 'echo-1:nitro', 'local/echo-1', 'local/json-1', 'echo-1'],
		undefined,
		keys.routes,
	);
	expect(served.error).toBeUndefined();
	expect(served.outputs[0].map((item) => item.json.content)).toEqual([
		'item 0',
		'item 1',
		'item 2',
		'item 3',
		'item 4',
	]);
	// Each request names the model as the expression gave it: the service routes it.
	expect(
		chatRequests(await service().requests()).map(
			(request) => (request.body as { model: string }).model,
		),
	).toEqual(['echo-1:online', 'echo-1:nitro', 'local/echo-1', 'local/json-1', 'echo-1']);
	await service().clearRequests();
	for (const model of ['json-1', 'echo-1:turbo', 'echo-2:online', 'locals/echo-1']) {
		const { error } = await run(['echo-1', model], undefined, keys.routes);
		expect(error?.message).toBe(
			`Model: "${model}" is not among the 2 models this API key may call (item 1)`,
		);
	}
	expect(chatRequests(await service().requests())).toHaveLength(0);
});
