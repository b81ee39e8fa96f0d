/**
 * The Chat Completion node as an AI Agent tool, in a real n8n with the packed package installed as n8n
 * installs it: Webhook -> AI Agent (v3.1) with the Chat Completions Chat Model (`tools-1`, which calls the
 * tool) and Chat Completion connected as a tool (n8n's `chatCompletionTool`, its prompt from `$fromAI()`).
 * What the agent hands its model back is read at the local service: the agent's second request carries
 * the tool's result as a `tool` message. Run as a tool, the node returns only what a model needs (the
 * reply text), and a failure's message (the only thing n8n passes on) names the cause and the fix.
 */
import { localCredential } from '../../dev/n8n/examples.cts';
import { keys, useLocalService } from '../support/service.cts';
import type { RecordedRequest } from '../support/service.cts';
import { agentWithChatCompletionTool } from './chat-model-workflows.cts';
import { useRealN8n } from '../../dev/n8n/real-n8n.cts';
import { readStreamed } from './support/streamed-response.cts';

/** n8n names the tool after the node, spaces as underscores. */
const TOOL_NAME = 'Chat_Completion';
const WRONG_KEY = 'sk-example-wrong-key-for-the-tool';
/** No capitalised word after the first: `tools-1` passes the whole text as the prompt, `echo-1` echoes it. */
const QUESTION = 'please say this sentence back to me, word for word, without changing anything.';

const service = useLocalService();

const n8n = useRealN8n(() => {
	const credential = localCredential(keys.default, service().baseUrl);
	const wrongKey = { id: 'wrong-key', name: 'Wrong key', type: 'chatCompletionsApi' };
	return {
		credentials: [
			credential,
			{ ...wrongKey, data: { apiKey: WRONG_KEY, baseUrl: service().baseUrl } },
		],
		workflows: [
			agentWithChatCompletionTool('tool-echo', { credential, model: 'echo-1' }),
			agentWithChatCompletionTool('tool-outside-group', { credential, model: 'echo-pro' }),
			agentWithChatCompletionTool('tool-wrong-key', {
				credential,
				toolCredential: wrongKey,
				model: 'echo-1',
			}),
			agentWithChatCompletionTool('tool-stream', { credential, model: 'echo-1', streaming: true }),
			agentWithChatCompletionTool('tool-bad-option', {
				credential,
				model: 'echo-1',
				options: { temperature: 5 },
			}),
		],
	};
});

type ChatRequest = RecordedRequest & { body: Record<string, unknown> };
type Message = {
	role: string;
	content: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
};

async function answer(path: string): Promise<{ output: string }> {
	return (await n8n().answer(path, { question: QUESTION })) as { output: string };
}

/**
 * The run's chat requests: the agent's first (which calls the tool), the tool node's, the agent's second;
 * and the tool message the second carries, with the call it answers.
 */
async function toolRound(): Promise<{ requests: ChatRequest[]; toolMessage: Message }> {
	const requests = (await service().requests()).filter(
		(request) => request.path === '/v1/chat/completions',
	) as ChatRequest[];
	expect(requests.map((request) => request.body.model)).toEqual([
		'tools-1',
		expect.any(String),
		'tools-1',
	]);
	const messages = requests[2].body.messages as Message[];
	expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
	const [call] = messages[1].tool_calls ?? [];
	const toolMessage = messages[2];
	expect(toolMessage.tool_call_id).toBe(call.id);
	return { requests, toolMessage };
}

/** What a failed tool call gave the model: n8n's `[{"error": message}]`, and that message. */
function errorOf(toolMessage: Message): string {
	const items = JSON.parse(toolMessage.content as string) as Array<{ error?: unknown }>;
	expect(items).toEqual([{ error: expect.any(String) }]);
	return items[0].error as string;
}

test('the model gets the reply text only: no usage, ids or conversation', async () => {
	const reply = await answer('tool-echo');
	const { requests, toolMessage } = await toolRound();
	// The agent's model called the tool with the prompt; the tool node asked echo-1 with it.
	const [call] = (requests[2].body.messages as Message[])[1].tool_calls ?? [];
	expect(call.function).toEqual({
		name: TOOL_NAME,
		arguments: JSON.stringify({ prompt: QUESTION }),
	});
	expect(requests[1].body).toMatchObject({
		model: 'echo-1',
		messages: [{ role: 'user', content: QUESTION }],
	});
	// The whole result: the echoed text in n8n's JSON array of the tool's items, nothing else.
	expect(toolMessage.content).toBe(JSON.stringify([{ content: QUESTION }]));
	expect((toolMessage.content as string).length).toBe(QUESTION.length + '[{"content":""}]'.length);
	for (const field of ['usage', 'messages', '"id"', 'model', 'tool_calls', 'finish_reason'])
		expect(toolMessage.content).not.toContain(field);
	expect(reply.output).toBe(
		`Based on the tools: ${TOOL_NAME}(${JSON.stringify({ prompt: QUESTION })}) = ${toolMessage.content as string}`,
	);
});

describe("a failed tool call: the model reads what happened, the service's words and the fix", () => {
	test("a model outside the key's group", async () => {
		const reply = await answer('tool-outside-group');
		const { requests, toolMessage } = await toolRound();
		expect(requests[1].body.model).toBe('echo-pro');
		const error = errorOf(toolMessage);
		expect(error).toMatch(
			/^Model "echo-pro" is not available to this API key\. The service answered "[^"]+" \(HTTP \d+/,
		);
		expect(error).toContain('Pick the model from the list');
		expect(error).not.toMatch(/\(item \d+\)/);
		// The user sees the same words in the agent's answer.
		expect(reply.output).toContain(JSON.stringify(error).slice(1, -1));
	});

	test('an invalid input (Temperature 5): what is wrong and the fix, nothing sent for the tool', async () => {
		await answer('tool-bad-option');
		const requests = (await service().requests()).filter(
			(request) => request.path === '/v1/chat/completions',
		) as ChatRequest[];
		// The agent's two requests, none from the tool.
		expect(requests.map((request) => request.body.model)).toEqual(['tools-1', 'tools-1']);
		const toolMessage = (requests[1].body.messages as Message[]).find(
			(message) => message.role === 'tool',
		);
		const error = errorOf(toolMessage!);
		expect(error).toBe(
			'Temperature: must be from 0 to 2, got 5. Use a value from 0 to 2, e.g. 0.7.',
		);
	});

	test('a wrong API key', async () => {
		await answer('tool-wrong-key');
		const { requests, toolMessage } = await toolRound();
		expect(requests[1].headers.authorization).toBe(`Bearer ${WRONG_KEY}`);
		const error = errorOf(toolMessage);
		expect(error).toMatch(
			/^The service rejected the API key\. The service answered "[^"]+" \(HTTP 401/,
		);
		expect(error).toContain('Open the credential and paste the key again from the service console');
		expect(error).not.toMatch(/\(item \d+\)/);
		expect(error).not.toContain(WRONG_KEY);
	});
});

test("a streaming agent: the tool's reply goes to the model, not to the user's stream", async () => {
	const response = await n8n().webhook('tool-stream', { question: QUESTION });
	expect(response.status).toBe(200);
	const text = (await readStreamed(response)).flatMap((read) => read.deltas).join('');
	const { requests, toolMessage } = await toolRound();
	expect(toolMessage.content).toBe(JSON.stringify([{ content: QUESTION }]));
	// Only the agent's answer: the tool's own reply (the echoed question) is not streamed before it.
	expect(text).toBe(
		`Based on the tools: ${TOOL_NAME}(${JSON.stringify({ prompt: QUESTION })}) = ${toolMessage.content as string}`,
	);
	expect(requests[1].body.stream).toBeUndefined();
});
