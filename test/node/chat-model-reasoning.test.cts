/**
 * The Chat Model with a reasoning model in DeepSeek's thinking mode (`think-tools-1`, which refuses a
 * tool-call message sent back without its reasoning), called as the AI Agent calls it: the agent rebuilds
 * the history without the reasoning, and the model sends it back on the message that made the calls.
 */
import { concat } from '@langchain/core/utils/stream';
import type { AIMessageChunk } from '@langchain/core/messages';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { z } from 'zod';

import { runProbe } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { knobs } from '../support/knobs.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

async function answer(model: string, script: ProbeScript, options: INodeParameters = {}) {
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl: service().baseUrl,
		model,
		options,
		script,
	});
	if (run.error) throw new Error(`${run.error.message}\n${run.error.description ?? ''}`);
	return run.output as IDataObject;
}

const weather = tool(async ({ city }) => `sunny in ${city}`, {
	name: 'weather',
	description: 'The weather in a city',
	schema: z.object({ city: z.string() }),
});

type Call = { id?: string; name: string; args: Record<string, unknown> };

/** The history the AI Agent (v3) rebuilds after running the calls: no reasoning, one assistant message per call, `content: []`. */
const agentHistory = (calls: Call[]) =>
	calls.flatMap((call) => [
		new AIMessage({
			content: [],
			tool_calls: [
				{ id: call.id, name: call.name, args: { ...call.args, id: call.id }, type: 'tool_call' },
			],
		}),
		new ToolMessage({ content: `sunny in ${call.args.city}`, tool_call_id: call.id ?? '' }),
	]);

const question = [new HumanMessage('What is the weather in Paris and Tokyo?')];
const assistants = async (index: number) =>
	(((await service().requests())[index].body as IDataObject).messages as IDataObject[]).filter(
		(message) => message.role === 'assistant',
	);

describe('a thinking tool loop completes through the Chat Model', () => {
	test('generate: the reasoning goes back on the one message with both parallel calls', async () => {
		const reply = await answer('think-tools-1', async (model) => {
			const agent = model.bindTools!([weather]);
			const first = (await agent.invoke(question)) as AIMessage;
			const second = await agent.invoke([...question, ...agentHistory(first.tool_calls ?? [])]);
			return { calls: first.tool_calls?.length ?? 0, text: second.text };
		});
		expect(reply).toEqual({
			calls: 2,
			text: 'Based on the tools: weather({"city":"Paris"}) = sunny in Paris; weather({"city":"Tokyo"}) = sunny in Tokyo',
		});
		const [assistant] = await assistants(1);
		expect(assistant).toMatchObject({
			content: null,
			reasoning_content: 'Reasoning about: What is the weather in Paris and Tokyo?',
		});
		expect(assistant.tool_calls).toHaveLength(2);
	});

	test('stream, the service sending `reasoning`: it goes back as `reasoning`; the streamed text has none of it', async () => {
		const reply = await answer(
			'think-tools-1',
			async (model) => {
				const agent = model.bindTools!([weather]);
				let first: AIMessageChunk | undefined;
				for await (const chunk of await agent.stream(question))
					first = first === undefined ? chunk : concat(first, chunk);
				const pieces: string[] = [];
				for await (const chunk of await agent.stream([
					...question,
					...agentHistory(first?.tool_calls ?? []),
				])) {
					pieces.push(chunk.text);
				}
				return { text: pieces.join('') };
			},
			knobs({ reasoning_field: 'reasoning' }).options,
		);
		expect(reply.text).toMatch(/^Based on the tools: weather\(\{"city":"Paris"\}\)/);
		const [assistant] = await assistants(1);
		expect(assistant).toMatchObject({
			reasoning: 'Reasoning about: What is the weather in Paris and Tokyo?',
		});
		expect(assistant).not.toHaveProperty('reasoning_content');
	});

	test('calls of an earlier turn keep their own reasoning; a model that sent none gets none back', async () => {
		await answer('think-tools-1', async (model) => {
			const agent = model.bindTools!([weather]);
			const first = (await agent.invoke([new HumanMessage('Weather in Paris?')])) as AIMessage;
			const history = [
				new HumanMessage('Weather in Paris?'),
				...agentHistory(first.tool_calls ?? []),
			];
			const second = (await agent.invoke([
				...history,
				new HumanMessage('And in Tokyo?'),
			])) as AIMessage;
			await agent.invoke([
				...history,
				new HumanMessage('And in Tokyo?'),
				...agentHistory(second.tool_calls ?? []),
			]);
			return {};
		});
		expect((await assistants(2)).map((message) => message.reasoning_content)).toEqual([
			'Reasoning about: Weather in Paris?',
			'Reasoning about: And in Tokyo?',
		]);
		await service().clearRequests();
		await answer('tools-1', async (model) => {
			const agent = model.bindTools!([weather]);
			const first = (await agent.invoke(question)) as AIMessage;
			await agent.invoke([...question, ...agentHistory(first.tool_calls ?? [])]);
			return {};
		});
		const [assistant] = await assistants(1);
		expect(Object.keys(assistant)).toEqual(['role', 'content', 'tool_calls']);
	});

	test('Reasoning Effort is sent as reasoning_effort', async () => {
		await answer('think-1', async (model) => ({ text: (await model.invoke('Think')).text }), {
			reasoningEffort: 'low',
		});
		const [request] = await service().requests();
		expect(request.body).toMatchObject({ reasoning_effort: 'low' });
	});
});
