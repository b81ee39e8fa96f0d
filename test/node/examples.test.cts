import type { IDataObject } from 'n8n-workflow';

import { ChatCompletionsApi } from '../../credentials/ChatCompletionsApi.credentials';
import { ChatCompletion } from '../../nodes/ChatCompletion/ChatCompletion.node';
import { exampleEngine, loadExample, TRIGGER } from '../support/examples.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

async function runExample(name: string) {
	const { runData, error } = await exampleEngine(
		{ node: new ChatCompletion(), credential: new ChatCompletionsApi() },
		keys.default,
		service().baseUrl,
	).runWorkflow({
		workflow: loadExample(name, service().origin),
		startNode: TRIGGER,
		items: [{ json: {} }],
	});
	expect(error).toBeUndefined();
	const output = (node: string, run = 0, index = 0) =>
		(runData[node]?.[run]?.data?.main[index] ?? []).map((item) => item.json as IDataObject);
	return { runData, output };
}

describe("the example workflows run through n8n's engine against the local service", () => {
	test('describe an image from a URL', async () => {
		const { output } = await runExample('describe-image-url');
		expect(output('Describe Image')[0].content).toBe(
			'Image 1: PNG 2x3 (detail low)\n\nYou asked: What is in this picture? Answer in one sentence.',
		);
	});

	test('describe an image from binary data (downloaded by an HTTP Request node)', async () => {
		const { output } = await runExample('describe-image-binary');
		expect(output('Describe Image')[0].content).toBe(
			'Image 1: JPEG 4x5\n\nYou asked: Describe this photo.',
		);
	});

	test('the tool loop: two functions, parallel calls, results merged and answered', async () => {
		const { runData, output } = await runExample('tool-loop');
		expect(runData.Assistant).toHaveLength(2);
		expect(
			output('Assistant', 0, 1).map((call) => `${call.name}(${(call.args as IDataObject).city})`),
		).toEqual(['weather(Paris)', 'weather(Tokyo)', 'time(Paris)', 'time(Tokyo)']);
		expect(output('Answer')[0].answer).toBe(
			'Based on the tools: weather({"city":"Paris"}) = {"city":"Paris","sky":"sunny","celsius":15}; ' +
				'weather({"city":"Tokyo"}) = {"city":"Tokyo","sky":"rain","celsius":15}; ' +
				'time({"city":"Paris"}) = {"city":"Paris","time":"14:00"}; ' +
				'time({"city":"Tokyo"}) = {"city":"Tokyo","time":"22:00"}',
		);
		const requests = await service().requests();
		expect(requests).toHaveLength(2);
	});
});
