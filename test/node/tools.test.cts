import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { engineWith, jsonItems, modelFromList, NODE_TYPE } from '../support/chat-node.cts';
import { checkEveryRequestConforms } from '../support/conformance.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

checkEveryRequestConforms(service);

const city = JSON.stringify({
	type: 'object',
	properties: { city: { type: 'string' } },
	required: ['city'],
});
const toolParameters = (extra: INodeParameters = {}): INodeParameters => ({
	model: modelFromList('tools-1'),
	promptType: 'json',
	toolsMode: 'define',
	tools: {
		values: [
			{ name: 'weather', description: 'Weather in a city', parameters: city },
			{ name: 'time', description: 'Local time in a city', parameters: city },
		],
	},
	...extra,
});

describe('tool calls come out on their own output, one item per call', () => {
	test('parallel calls: ids, names, parsed arguments and the conversation to continue', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const { outputs } = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters(),
			items: jsonItems({
				messages: [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }],
			}),
		});
		expect(outputs[0]).toEqual([]);
		const calls = outputs[1].map((item) => item.json);
		expect(calls.map((call) => [call.name, call.args, call.index, call.count])).toEqual([
			['weather', { city: 'Paris' }, 0, 2],
			['weather', { city: 'Tokyo' }, 1, 2],
		]);
		expect(calls[0].id).toMatch(/^call_/);
		expect(calls[0].messages).toEqual([
			{ role: 'user', content: 'What is the weather in Paris and Tokyo?' },
			calls[0].message,
		]);
		expect(outputs[1].map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		const [request] = await service().requests();
		expect((request.body as IDataObject).tools).toHaveLength(2);
		expect(request.body).not.toHaveProperty('tool_choice');
	});

	test('the results, answered by separate items, go back in one request and the model answers', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const first = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters(),
			items: jsonItems({ messages: [{ role: 'user', content: 'Weather and time in Oslo?' }] }),
		});
		const answered = first.outputs[1].map((item) => ({
			json: { ...item.json, result: item.json.name === 'weather' ? { sky: 'snow' } : '08:00' },
		}));
		const second = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters(),
			items: answered.reverse(),
		});
		expect(second.error).toBeUndefined();
		expect(second.outputs[1]).toEqual([]);
		const [reply] = second.outputs[0];
		expect(reply.json.content).toBe(
			'Based on the tools: weather({"city":"Oslo"}) = {"sky":"snow"}; time({"city":"Oslo"}) = 08:00',
		);
		expect(reply.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		const requests = await service().requests();
		expect(requests).toHaveLength(2);
		expect(
			((requests[1].body as IDataObject).messages as IDataObject[]).map((message) => message.role),
		).toEqual(['user', 'assistant', 'tool', 'tool']);
	});

	test('Tool Choice: None answers with text on the Reply output; a named function is forced', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const none = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters({ toolChoice: 'none' }),
			items: jsonItems({ messages: [{ role: 'user', content: 'Weather in Rome?' }] }),
		});
		expect(none.outputs[0][0].json.content).toBe('Weather in Rome?');
		const forced = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters({ toolChoice: 'function', toolChoiceFunction: 'time' }),
			items: jsonItems({ messages: [{ role: 'user', content: 'Weather in Rome?' }] }),
		});
		expect(forced.outputs[1].map((item) => item.json.name)).toEqual(['time']);
		expect(
			(await service().requests()).map((request) => (request.body as IDataObject).tool_choice),
		).toEqual(['none', { type: 'function', function: { name: 'time' } }]);
	});

	test('a missing result fails the items of that reply with the fix; nothing is sent', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const first = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters(),
			items: jsonItems({ messages: [{ role: 'user', content: 'Weather and time in Lima?' }] }),
		});
		const onlyWeather = first.outputs[1]
			.filter((item) => item.json.name === 'weather')
			.map((item) => ({ json: { ...item.json, result: 'warm' } }));
		await service().clearRequests();
		const second = await engine.runNode({
			type: NODE_TYPE,
			parameters: toolParameters(),
			items: onlyWeather,
			settings: { onError: 'continueRegularOutput' },
		});
		expect(second.outputs[0][0].json.error).toMatch(
			/^Tool Result: the model asked for 2 tool calls, but no item answers call_\w+ \(time\) \(item 0\)$/,
		);
		expect((second.outputs[0][0].json.error_details as IDataObject).description).toMatch(
			/Merge node \(Append\)/,
		);
		expect(await service().requests()).toEqual([]);
	});
});
