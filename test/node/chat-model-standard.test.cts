/**
 * LangChain's standard chat-model tests (see standard/cases.cts) on the Chat Completions Chat Model (through
 * n8n-core's engine and the SDK's adapter, as n8n's AI nodes get it) against the local service: each case
 * must pass, but for the few the local service cannot answer and the audio the Chat Model refuses in words of
 * its own, which must fail exactly where and how EXPECTED_FAILURES says. After the tests, the same cases run
 * on @langchain/openai's ChatOpenAI, and the table of both is printed (ChatOpenAI's results are not asserted:
 * they show where the local service is the limit).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { InMemoryCache } from '@langchain/core/caches';
import { ChatOpenAI } from '@langchain/openai';
import type { INodeParameters } from 'n8n-workflow';

import { runProbe } from './chat-model-probe.cts';
import { caseModel, STANDARD_CASES } from './standard/cases.cts';
import type { CaseContext, MakeModel, StandardCase } from './standard/cases.cts';
import { keys, useLocalService } from '../support/service.cts';

/** The side-by-side table, each case on ChatOpenAI too: before the service stops (jest runs afterAll hooks in the order they are declared). */
afterAll(async () => {
	const mark = (result: Outcome | undefined) =>
		result === undefined
			? 'not run'
			: result.ok
				? 'pass'
				: `FAIL (${(result.error ?? '').split('\n').slice(0, 6).join(' ')})`;
	const lines: string[] = [];
	for (const [name, check] of Object.entries(STANDARD_CASES)) {
		const chatOpenAI = await runOnChatOpenAI(name, check);
		lines.push(
			`${name.padEnd(46)} ChatOpenAI: ${mark(chatOpenAI)}\n${''.padEnd(46)} Chat Model: ${mark(chatModelResults.get(name))}`,
		);
	}
	console.log(`LangChain standard chat-model tests against the local service\n${lines.join('\n')}`);
}, 60_000);

const service = useLocalService();

/** The suite's unit tests build the model with temperature 0 and at most 100 tokens. */
const STANDARD_PARAMS = { temperature: 0, maxTokens: 100 };

interface Outcome {
	ok: boolean;
	error?: string;
}

async function outcome(run: () => Promise<void>): Promise<Outcome> {
	try {
		await run();
		return { ok: true };
	} catch (error) {
		return { ok: false, error: (error as Error).message };
	}
}

/** The tool-call history the local service refuses: a call of tools-1 the case sends back without its result. */
const unansweredCall = (calls: string) =>
	new RegExp(
		`^The service rejected the request: messages\\[1\\]\\.tool_calls\\[1\\]: ${calls} must each be answered by a tool message \\(with that tool_call_id\\) at the end of the messages\\.`,
	);

/** What the Chat Model says of a content block the protocol cannot carry, before anything is sent. */
const cannotCarry = (block: string) =>
	new RegExp(
		`^Message 1 \\(user\\): part 1 is ${block}, which chat completions cannot carry \\(they take text, images and files such as PDFs\\)\\. Turn audio into text first \\(the Chat Completions Media node's Transcribe a Recording`,
	);

/**
 * The cases the Chat Model does not pass, each failing at one known point: where the local service cannot
 * give what the case asks, the Chat Model got as far as the service allows; audio it refuses (the protocol cannot carry it).
 */
const EXPECTED_FAILURES: Record<string, RegExp> = {
	// tools-1 gives every integer argument the value 1: the one call is made and named, with { a: 1, b: 1 }.
	testToolCalling: /^expect\(received\)\.toEqual\(expected\)[^]*- {3}"b": 2,\n\+ {3}"b": 1,/,
	// tools-1 makes one call per capitalised word ("San", "Francisco"); the case answers the first only.
	testModelCanUseToolUseAIMessage: unansweredCall("the tool call 'call_[0-9a-f]{8}'"),
	testModelCanUseToolUseAIMessageWithStreaming: unansweredCall("the tool call 'call_[0-9a-f]{8}'"),
	// ...and four for "San Francisco ... ALWAYS" with two tools; the case answers two.
	testParallelToolCalling: unansweredCall(
		"the tool calls 'call_[0-9a-f]{8}', 'call_[0-9a-f]{8}', 'call_[0-9a-f]{8}', 'call_[0-9a-f]{8}'",
	),
	// tools-1 leaves a nested object empty: the Chat Model checks the reply against the schema and says so.
	testInvokeMoreComplexTools:
		/^The model's structured output \("service_tool", functionCalling\) does not fit the schema: \$\.apiDetails\.serviceName: is required but missing;[^]* The model answered: \{"decision":"UseAPI","explanation":"UseAPI","apiDetails":\{\}\}\./,
	testStandardAudioContentBlocks: cannotCarry('an audio block of type audio/wav'),
};

async function context(make: MakeModel): Promise<CaseContext> {
	const imageUrl = `${service().origin}/__assets/pixel-2x3.png`;
	const bytes = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
	return { make, imageUrl, imageBase64: bytes.toString('base64') };
}

function runOnChatOpenAI(name: string, check: StandardCase): Promise<Outcome> {
	const make: MakeModel = (args = {}) =>
		new ChatOpenAI({
			model: caseModel(name),
			apiKey: keys.default,
			configuration: { baseURL: service().baseUrl },
			maxRetries: 0,
			...(args.stop ? { stop: args.stop } : {}),
			...(args.cache ? { cache: new InMemoryCache() } : {}),
			...(args.standardParams ? STANDARD_PARAMS : {}),
		});
	return outcome(async () => check(await context(make)));
}

/**
 * The case inside one run of the probe: the model n8n supplies. Its settings come from the node (Options);
 * the Chat Model has no Stop option, so stop sequences "on the model" are bound to it (`withConfig`).
 */
async function runOnChatModel(name: string, check: StandardCase): Promise<Outcome> {
	const needsStandard = name === 'testStandardParams';
	const options: INodeParameters = needsStandard ? STANDARD_PARAMS : {};
	const run = await runProbe({
		apiKey: keys.default,
		baseUrl: service().baseUrl,
		model: caseModel(name),
		options,
		script: async (model) => {
			const make: MakeModel = (args = {}) => {
				if (args.cache) model.cache = new InMemoryCache();
				return args.stop
					? (model.withConfig({ stop: args.stop }) as unknown as BaseChatModel)
					: model;
			};
			const result = await outcome(async () => check(await context(make)));
			return { ...result };
		},
	});
	if (run.error) return { ok: false, error: run.error.message };
	return run.output as unknown as Outcome;
}

const chatModelResults = new Map<string, Outcome>();

test.each(Object.entries(STANDARD_CASES))(
	'%s',
	async (name, check) => {
		const result = await runOnChatModel(name, check);
		chatModelResults.set(name, result);
		const failure = EXPECTED_FAILURES[name];
		expect(result).toEqual(
			failure ? { ok: false, error: expect.stringMatching(failure) } : { ok: true },
		);
	},
	// The first case loads the SDK and LangChain.
	30_000,
);
