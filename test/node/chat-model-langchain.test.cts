/**
 * What n8n's AI nodes and LangChain code ask of the Chat Completions Chat Model beyond a plain call, through
 * n8n-core's engine and the SDK's LangChain adapter (see chat-model-probe.cts), against the local service
 * over loopback HTTP: tool_choice, withStructuredOutput, streamed usage details, images and files in every
 * LangChain form, LangSmith's parameters, and a fallback model.
 */
import type { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { z } from 'zod';

import { runProbe } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { knobs } from '../support/knobs.cts';
import { tinyPdf } from '../support/pdf.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

function probe(model: string, script: ProbeScript, options: INodeParameters = {}) {
	return runProbe({ apiKey: keys.default, baseUrl: service().baseUrl, model, options, script });
}

async function answer(model: string, script: ProbeScript, options: INodeParameters = {}) {
	const run = await probe(model, script, options);
	if (run.error) throw new Error(`${run.error.message}\n${run.error.description ?? ''}`);
	return run.output as IDataObject;
}

// The first run loads n8n's engine, the SDK and LangChain (seconds on a loaded machine): done before the tests, so
// that none pays for it within its time limit.
beforeAll(async () => {
	await answer('echo-1', async (model) => ({ text: (await model.invoke('warm up')).text }));
}, 60_000);

const bodies = async () =>
	(await service().requests()).map((request) => request.body as IDataObject);

const weather = tool(async ({ city }) => `sunny in ${city}`, {
	name: 'weather',
	description: 'The weather in a city',
	schema: z.object({ city: z.string().describe('City name') }),
});
const clock = tool(async ({ city }) => `noon in ${city}`, {
	name: 'clock',
	description: 'The time in a city',
	schema: z.object({ city: z.string() }),
});

describe('tool_choice', () => {
	test("Force Tool Call as the AI Agent does it: bindTools(tools, { tool_choice: 'any' }), bound again; each tool sent once", async () => {
		const reply = await answer('tools-1', async (model) => {
			const forced = model.bindTools!([weather, clock], { tool_choice: 'any' }) as typeof model;
			const message = (await forced.bindTools!([weather, clock]).invoke(
				'Weather in Paris?',
			)) as AIMessage;
			return { calls: message.tool_calls?.map((call) => call.name) ?? [] };
		});
		expect(reply.calls).toEqual(['weather']);
		const [body] = await bodies();
		expect(body.tool_choice).toBe('required');
		expect(
			(body.tools as IDataObject[]).map((entry) => (entry.function as IDataObject).name),
		).toEqual(['weather', 'clock']);
	});

	test('as a call option: a tool name forces that function; none, auto and required as given', async () => {
		const reply = await answer('tools-1', async (model) => {
			const bound = model.bindTools!([weather, clock]);
			const named = (await bound.invoke('Time in Paris?', {
				tool_choice: 'clock',
			} as never)) as AIMessage;
			const none = await bound.invoke('Time in Paris?', { tool_choice: 'none' } as never);
			await bound.invoke('Time in Paris?', { tool_choice: 'auto' } as never);
			await bound.invoke('Time in Paris?', { tool_choice: 'required' } as never);
			return { named: named.tool_calls?.[0]?.name ?? '', none: none.text };
		});
		expect(reply).toEqual({ named: 'clock', none: 'Time in Paris?' });
		expect((await bodies()).map((body) => body.tool_choice)).toEqual([
			{ type: 'function', function: { name: 'clock' } },
			'none',
			'auto',
			'required',
		]);
	});

	test('a tool that is not bound is refused before anything is sent, naming it', async () => {
		const run = await probe('tools-1', async (model) => {
			await model.bindTools!([weather]).invoke('Hi', { tool_choice: 'search' } as never);
			return {};
		});
		expect(run.error?.message).toMatch(
			/^tool_choice: names the tool "search", which is not bound \(bound: "weather"\)/,
		);
		expect(await bodies()).toHaveLength(0);
	});
});

describe('withStructuredOutput', () => {
	const person = z.object({ name: z.string(), age: z.number() }).describe('A person');

	test('functionCalling (the default): a forced tool; the arguments parsed by the Zod schema', async () => {
		const reply = await answer('tools-1', async (model) => ({
			person: await model.withStructuredOutput(person, { name: 'person' }).invoke('Ada is 36'),
		}));
		expect(reply.person).toEqual({ name: expect.any(String), age: expect.any(Number) });
		const [body] = await bodies();
		expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'person' } });
		expect(body.response_format).toBeUndefined();
	});

	test('jsonSchema: response_format json_schema with the given name, strict; includeRaw gives raw and parsed', async () => {
		const reply = await answer('json-1', async (model) => {
			const result = await model
				.withStructuredOutput(person, {
					method: 'jsonSchema',
					name: 'person',
					strict: true,
					includeRaw: true,
				})
				.invoke('Ada Lovelace');
			return { parsed: result.parsed, raw: (result.raw as AIMessage).text };
		});
		expect(reply.parsed).toEqual({ name: 'Ada', age: 1 });
		expect(JSON.parse(reply.raw as string)).toEqual(reply.parsed);
		const [body] = await bodies();
		expect(body.response_format).toEqual({
			type: 'json_schema',
			json_schema: {
				name: 'person',
				strict: true,
				schema: {
					type: 'object',
					description: 'A person',
					properties: { name: { type: 'string' }, age: { type: 'number' } },
					required: ['name', 'age'],
					additionalProperties: false,
				},
			},
		});
		expect(body.tools).toBeUndefined();
	});

	test.each([
		[
			'the service refuses json_schema: the schema as an instruction',
			{ reject_response_format: 'json_schema' },
		],
		[
			'a reply that breaks the schema is repaired (Options > Repair Attempts)',
			{ invalid_json: { id: 'person', count: 1, mode: 'schema' } },
		],
	])('jsonSchema where %s; the second request answers', async (_case, xLocal) => {
		const reply = await answer(
			'json-1',
			async (model) => ({
				person: await model
					.withStructuredOutput(person, { method: 'jsonSchema' })
					.invoke('Ada Lovelace'),
			}),
			knobs(xLocal).options,
		);
		expect(reply.person).toEqual({ name: expect.any(String), age: expect.any(Number) });
		expect(await bodies()).toHaveLength(2);
	});

	test('jsonMode: response_format json_object; the reply checked against the schema', async () => {
		const reply = await answer('json-1', async (model) => ({
			person: await model
				.withStructuredOutput(person, { method: 'jsonMode' })
				.invoke(
					'Answer in json following {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "number"}}, "required": ["name", "age"]}',
				),
		}));
		expect(reply.person).toEqual({ name: expect.any(String), age: expect.any(Number) });
		const [body] = await bodies();
		expect(body.response_format).toEqual({ type: 'json_object' });
	});

	test("a reply that does not fit is the AI node's error, saying what is wrong", async () => {
		const run = await probe('json-1', async (model) => {
			await model.withStructuredOutput(person, { method: 'jsonMode' }).invoke('Answer in json');
			return {};
		});
		expect(run.error?.message).toBe(
			'The model\'s structured output ("extract", jsonMode) does not fit the schema: $.name: is required but missing; $.age: is required but missing; $: has the property "answer" that the schema does not allow. The model answered: {"answer": "Answer in json"}. Run again, raise Repair Attempts (it sends a reply that does not fit back to the model), make the schema simpler, or choose a model that is better at structured output.',
		);
	});
});

test("streamed usage keeps the service's cached input and reasoning tokens", async () => {
	const reply = await answer(
		'think-1',
		async (model) => {
			let whole: AIMessageChunk | undefined;
			for await (const chunk of await model.stream('Why is the sky blue')) {
				whole = whole === undefined ? chunk : concat(whole, chunk);
			}
			return { usage: whole?.usage_metadata as unknown as IDataObject };
		},
		knobs({ cached_tokens: 2 }).options,
	);
	// The reasoning is "Reasoning about: Why is the sky blue": 7 words, the service's tokens.
	expect(reply.usage).toMatchObject({
		input_token_details: { cache_read: 2 },
		output_token_details: { reasoning: 7 },
	});
});

describe('images in every LangChain form', () => {
	test('v0 url and base64, v1 url and data: each reaches the service as an image', async () => {
		const pixel = `${service().origin}/__assets/pixel-2x3.png`;
		const bytes = Buffer.from(await (await fetch(pixel)).arrayBuffer()).toString('base64');
		const reply = await answer('vision-1', async (model) => {
			const message = await model.invoke([
				new HumanMessage({
					content: [
						{ type: 'text', text: 'What are these?' },
						{ type: 'image', source_type: 'url', url: pixel },
						{ type: 'image', source_type: 'base64', data: bytes, mime_type: 'image/png' },
						{ type: 'image', url: pixel },
						{ type: 'image', data: bytes, mimeType: 'image/png' },
					],
				}),
			]);
			return { text: message.text };
		});
		expect(reply.text).toBe(
			'Image 1: PNG 2x3\nImage 2: PNG 2x3\nImage 3: PNG 2x3\nImage 4: PNG 2x3\n\nYou asked: What are these?',
		);
	});

	test('audio is refused before anything is sent, naming the part', async () => {
		const run = await probe('vision-1', async (model) => {
			await model.invoke([
				new HumanMessage({
					content: [
						{ type: 'text', text: 'Listen' },
						{ type: 'audio', source_type: 'base64', data: 'UklG', mime_type: 'audio/wav' },
					],
				}),
			]);
			return {};
		});
		expect(run.error?.message).toMatch(
			/^Message 1 \(user\): part 2 is an audio block of type audio\/wav, which chat completions cannot carry/,
		);
		expect(await bodies()).toHaveLength(0);
	});
});

describe('files', () => {
	const pdf = tinyPdf(['Invoice 42', 'Total due: 99 EUR']);
	/** The block the AI Agent's "Automatically Passthrough Binary PDFs" hands the model. */
	const agentPdf = {
		type: 'file',
		source_type: 'base64',
		mime_type: 'application/pdf',
		data: pdf.toString('base64'),
		metadata: { filename: 'invoice.pdf' },
	};

	test("a PDF (the AI Agent's block) goes as a file part, and the model answers from its text", async () => {
		const reply = await answer('echo-1', async (model) => ({
			text: (await model.invoke([new HumanMessage({ content: [agentPdf] })])).text,
		}));
		expect(reply.text).toBe('invoice.pdf: Invoice 42\nTotal due: 99 EUR');
		const [body] = await bodies();
		expect((body.messages as IDataObject[])[0].content).toEqual([
			{
				type: 'file',
				file: {
					filename: 'invoice.pdf',
					file_data: `data:application/pdf;base64,${pdf.toString('base64')}`,
				},
			},
		]);
	});

	test('a web page named report.pdf (a failed download) is refused before sending, in words for the agent and its user', async () => {
		const page = Buffer.from('<!DOCTYPE html><html><body>Sign in</body></html>');
		const run = await probe('echo-1', async (model) => {
			await model.invoke([
				new HumanMessage({
					content: [
						{ ...agentPdf, data: page.toString('base64'), metadata: { filename: 'report.pdf' } },
					],
				}),
			]);
			return {};
		});
		expect(run.error?.message).toMatch(
			/holds a file "report\.pdf" sent as a PDF, but it is an HTML page \(a PDF starts with %PDF-\)\. The file is not the PDF it is named: a download that failed often saves an error or login page under the PDF's name\./,
		);
		expect(run.error?.message).not.toMatch(/Options|Binary Properties/);
		expect(await bodies()).toHaveLength(0);
	});

	test('a plain-text file goes as text', async () => {
		const reply = await answer('echo-1', async (model) => {
			const file = {
				type: 'file',
				source_type: 'text',
				text: 'Hello, World!',
				metadata: { filename: 'hello.txt' },
			};
			return { text: (await model.invoke([new HumanMessage({ content: [file] })])).text };
		});
		expect(reply.text).toBe('<file name="hello.txt">\nHello, World!\n</file>');
	});

	test("a model that cannot read files: its own fix, and Fallback Models' next model reads it", async () => {
		const run = await runProbe({
			apiKey: keys.fallback,
			baseUrl: service().baseUrl,
			model: 'no-files-1',
			options: {},
			script: async (model) => ({
				text: (await model.invoke([new HumanMessage({ content: [agentPdf] })])).text,
			}),
		});
		expect(run.error?.message).toMatch(
			/^The service rejected the request: The model `no-files-1` does not support file input\. The service answered [^]*\. This model cannot read PDFs or other files: choose one that can/,
		);
		const fallback = await runProbe({
			apiKey: keys.fallback,
			baseUrl: service().baseUrl,
			model: 'no-files-1',
			options: { fallbackModels: 'echo-1' },
			script: async (model) => ({
				text: (await model.invoke([new HumanMessage({ content: [agentPdf] })])).text,
			}),
		});
		expect(fallback.output).toEqual({ text: 'invoice.pdf: Invoice 42\nTotal due: 99 EUR' });
	});
});

test("LangSmith's parameters name the model and the Options", async () => {
	const reply = await answer(
		'echo-1',
		async (model) => ({
			params: model.getLsParams({ stop: ['END'] } as never) as unknown as IDataObject,
		}),
		{ temperature: 0.4, maxTokens: 64 },
	);
	expect(reply.params).toMatchObject({
		ls_model_type: 'chat',
		ls_model_name: 'echo-1',
		ls_temperature: 0.4,
		ls_max_tokens: 64,
		ls_stop: ['END'],
	});
});

test('as a fallback (withFallbacks, as the AI Agent and the Basic LLM Chain use it) the model answers when the first fails', async () => {
	const reply = await answer('echo-1', async (model) => {
		const failing = model.withConfig({ response_format: { type: 'xml' } } as never);
		return { text: (await failing.withFallbacks([model]).invoke('Hello there')).text };
	});
	expect(reply.text).toBe('Hello there');
});
