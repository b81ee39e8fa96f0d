/**
 * LangChain's standard chat-model tests (see standard/cases.cts), each case run on @langchain/openai's
 * ChatOpenAI and on the Chat Completions Chat Model (through n8n-core's engine and the SDK's adapter, as
 * n8n's AI nodes get it), both against the local service. A case passes here when the Chat Model passes
 * it, or when ChatOpenAI fails it too (the local service cannot give what it asks); the table of both is
 * printed at the end.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { InMemoryCache } from '@langchain/core/caches';
import { ChatOpenAI } from '@langchain/openai';
import type { INodeParameters } from 'n8n-workflow';

import { runProbe } from './chat-model-probe.cts';
import { caseModel, STANDARD_CASES } from './standard/cases.cts';
import type { CaseContext, MakeModel, StandardCase } from './standard/cases.cts';
import { keys, useLocalService } from '../support/service.cts';

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
		return { ok: false, error: (error as Error).message.split('\n').slice(0, 6).join(' ') };
	}
}

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

const table: Array<{ name: string; chatOpenAI: Outcome; chatModel: Outcome }> = [];

afterAll(() => {
	const mark = (result: Outcome) => (result.ok ? 'pass' : `FAIL (${result.error ?? ''})`);
	const lines = table.map(
		({ name, chatOpenAI, chatModel }) =>
			`${name.padEnd(46)} ChatOpenAI: ${mark(chatOpenAI)}\n${''.padEnd(46)} Chat Model: ${mark(chatModel)}`,
	);
	console.log(`LangChain standard chat-model tests against the local service\n${lines.join('\n')}`);
});

test.each(Object.entries(STANDARD_CASES))(
	'%s: passes for the Chat Model where ChatOpenAI passes',
	async (name, check) => {
		const chatOpenAI = await runOnChatOpenAI(name, check);
		const chatModel = await runOnChatModel(name, check);
		table.push({ name, chatOpenAI, chatModel });
		if (chatOpenAI.ok) expect(chatModel).toEqual({ ok: true });
	},
	// The first case loads the SDK, LangChain and ChatOpenAI.
	30_000,
);
