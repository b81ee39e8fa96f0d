import {
	engineWith,
	jsonItems,
	modelFromList,
	NODE_TYPE,
	simpleParameters,
} from '../support/chat-node.cts';
import { checkEveryRequestConforms } from '../support/conformance.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

// Every request these tests make (each combination of UI fields they cover) must pass the official schema.
checkEveryRequestConforms(service);

describe("text conversations through n8n's execution engine", () => {
	test('a simple prompt gives the simplified item, and only model and messages are sent', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const { outputs, error } = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('What is the capital of France?'),
			items: jsonItems({}),
		});
		expect(error).toBeUndefined();
		const [item] = outputs[0];
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toEqual({
			content: 'What is the capital of France?',
			tool_calls: [],
			finish_reason: 'stop',
			usage: { prompt_tokens: 6, completion_tokens: 6, total_tokens: 12 },
			model: 'echo-1-2026-11-01',
			id: expect.stringMatching(/^chatcmpl-/),
			message: { role: 'assistant', content: 'What is the capital of France?' },
			messages: [
				{ role: 'user', content: 'What is the capital of France?' },
				{ role: 'assistant', content: 'What is the capital of France?' },
			],
		});
		const [request] = await service().requests();
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/chat/completions');
		expect(request.headers.authorization).toBe(`Bearer ${keys.default}`);
		expect(request.headers['content-type']).toMatch(/^application\/json/);
		expect(request.body).toEqual({
			model: 'echo-1',
			messages: [{ role: 'user', content: 'What is the capital of France?' }],
		});
	});

	test('every item runs with its own expression values, in order, with pairedItem', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const { outputs } = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('={{ $json.question }}', 'echo-1', {
				systemMessage: '=Answer as {{ $json.persona }}.',
				options: { temperature: '={{ $json.temperature }}', maxTokens: 50 },
			}),
			items: jsonItems(
				{ question: 'one two', persona: 'a pirate', temperature: 0.1 },
				{ question: 'three', persona: 'a poet', temperature: 1.5 },
				{ question: 'four five six', persona: 'a judge', temperature: 0 },
			),
		});
		expect(outputs[0].map((item) => item.json.content)).toEqual([
			'one two',
			'three',
			'four five six',
		]);
		expect(outputs[0].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		// Sent in item order, the requests may arrive in another: one on a connection kept open overtakes
		// one that opens its own. The item's request is the one with its question.
		const question = (body: unknown) =>
			(body as { messages: Array<{ content: string }> }).messages[1].content;
		const order = ['one two', 'three', 'four five six'];
		const bodies = (await service().requests())
			.map((request) => request.body)
			.sort((a, b) => order.indexOf(question(a)) - order.indexOf(question(b)));
		expect(bodies).toEqual([
			{
				model: 'echo-1',
				messages: [
					{ role: 'system', content: 'Answer as a pirate.' },
					{ role: 'user', content: 'one two' },
				],
				temperature: 0.1,
				max_tokens: 50,
			},
			{
				model: 'echo-1',
				messages: [
					{ role: 'system', content: 'Answer as a poet.' },
					{ role: 'user', content: 'three' },
				],
				temperature: 1.5,
				max_tokens: 50,
			},
			{
				model: 'echo-1',
				messages: [
					{ role: 'system', content: 'Answer as a judge.' },
					{ role: 'user', content: 'four five six' },
				],
				temperature: 0,
				max_tokens: 50,
			},
		]);
	});

	test('message rows and a JSON conversation carried from a previous reply', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const first = await engine.runNode({
			type: NODE_TYPE,
			parameters: {
				model: modelFromList('echo-1'),
				promptType: 'messages',
				messages: {
					values: [
						{ role: 'system', content: 'Be brief.' },
						{ role: 'user', content: 'Hello' },
						{ role: 'assistant', content: 'Hi!' },
						{ role: 'user', content: 'Name a colour' },
					],
				},
			},
			items: jsonItems({}),
		});
		const reply = first.outputs[0][0].json;
		expect(reply.content).toBe('Name a colour');
		expect((reply.messages as unknown[]).length).toBe(5);

		const next = await engine.runNode({
			type: NODE_TYPE,
			parameters: {
				model: modelFromList('echo-1'),
				promptType: 'json',
				messagesJson: '={{ [...$json.messages, { role: "user", content: "And another" }] }}',
			},
			items: [{ json: reply }],
		});
		expect(next.error).toBeUndefined();
		expect(next.outputs[0][0].json.content).toBe('And another');
		const bodies = (await service().requests()).map(
			(request) => request.body as { messages: unknown[] },
		);
		expect(bodies[1].messages).toEqual([
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'Hello' },
			{ role: 'assistant', content: 'Hi!' },
			{ role: 'user', content: 'Name a colour' },
			{ role: 'assistant', content: 'Name a colour' },
			{ role: 'user', content: 'And another' },
		]);
	});

	test('Maximum Tokens cuts the reply (finish_reason length) and Extra Body is merged', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const { outputs } = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('one two three four five', 'echo-1', {
				options: { maxTokens: 2, topP: 0.5, extraBody: '{"seed": 7, "user": "n8n"}' },
			}),
			items: jsonItems({}),
		});
		expect(outputs[0][0].json).toMatchObject({ content: 'one two', finish_reason: 'length' });
		const [request] = await service().requests();
		expect(request.body).toEqual({
			seed: 7,
			user: 'n8n',
			model: 'echo-1',
			messages: [{ role: 'user', content: 'one two three four five' }],
			top_p: 0.5,
			max_tokens: 2,
		});
	});

	test('reasoning is separated from the content, whether sent as a field or inline; message keeps it as sent', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const sent = {
			'think-1': {
				role: 'assistant',
				content: 'Why is the sky blue',
				reasoning_content: 'Reasoning about: Why is the sky blue',
			},
			'think-inline-1': {
				role: 'assistant',
				content: '<think>Reasoning about: Why is the sky blue</think>\n\nWhy is the sky blue',
			},
		};
		for (const [model, message] of Object.entries(sent)) {
			const { outputs } = await engine.runNode({
				type: NODE_TYPE,
				parameters: simpleParameters('Why is the sky blue', model),
				items: jsonItems({}),
			});
			expect(outputs[0][0].json).toMatchObject({
				content: 'Why is the sky blue',
				reasoning: 'Reasoning about: Why is the sky blue',
			});
			expect(outputs[0][0].json.message).toEqual(message);
		}
	});

	test('with Simplify Output off, the raw response comes out', async () => {
		const engine = engineWith(keys.default, service().baseUrl);
		const { outputs } = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('raw please', 'echo-1', { simplify: false }),
			items: jsonItems({}),
		});
		expect(outputs[0][0].json).toMatchObject({
			object: 'chat.completion',
			model: 'echo-1-2026-11-01',
			choices: [
				{ index: 0, message: { role: 'assistant', content: 'raw please' }, finish_reason: 'stop' },
			],
			usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 },
		});
	});

	test('a key pasted with spaces and "Bearer ", and a Base URL pasted with /chat/completions/, just work', async () => {
		const engine = engineWith(
			`  Bearer ${keys.default} \n`,
			`${service().baseUrl}/chat/completions/`,
		);
		const { outputs, error } = await engine.runNode({
			type: NODE_TYPE,
			parameters: simpleParameters('hygiene'),
			items: jsonItems({}),
		});
		expect(error).toBeUndefined();
		expect(outputs[0][0].json.content).toBe('hygiene');
		const [request] = await service().requests();
		expect(request.path).toBe('/v1/chat/completions');
		expect(request.headers.authorization).toBe(`Bearer ${keys.default}`);
	});
});
