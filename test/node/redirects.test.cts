/**
 * A gateway that answers with a redirect (307), through both nodes, streamed and not: the key goes on to
 * the same origin, never to another one (another host name or port), whatever follows the redirect. The
 * local service's /__redirect route answers the redirect; its request log shows what arrived where.
 */
import { concat } from '@langchain/core/utils/stream';
import type { AIMessageChunk } from '@langchain/core/messages';
import type { IDataObject } from 'n8n-workflow';

import { runProbe } from './chat-model-probe.cts';
import type { ProbeScript } from './chat-model-probe.cts';
import { engineWith, jsonItems, NODE_TYPE, simpleParameters } from '../support/chat-node.cts';
import type { RecordedRequest } from '../support/service.cts';
import { keys, useLocalService } from '../support/service.cts';

const service = useLocalService();

const PROMPT = 'Hello there';

type Where = 'same-origin' | 'other-origin';

/** What the user got from one run: the reply's text, or the error's message and description. */
interface Outcome {
	text?: string;
	error?: { message: string; description?: string | null };
}

const baseUrl = (where: Where) => `${service().origin}/__redirect/307/${where}/v1`;

/**
 * The credential's own options, as n8n adds them to a credential with `authenticate`: Allowed HTTP Request
 * Domains set to a list. The Base URL's host is always allowed for the credential's own nodes.
 */
const LIMITED = { allowedHttpRequestDomains: 'domains', allowedDomains: 'example.com' };

async function chatCompletion(
	where: Where,
	stream: boolean,
	credential: IDataObject = {},
): Promise<Outcome> {
	const { outputs, error } = await engineWith(keys.default, baseUrl(where), credential).runNode({
		type: NODE_TYPE,
		parameters: simpleParameters(PROMPT, 'echo-1', { options: { maxRetries: 0, stream } }),
		items: jsonItems({}),
	});
	return error ? { error } : { text: outputs[0][0].json.content as string };
}

const invoke: ProbeScript = async (model) => ({ text: (await model.invoke(PROMPT)).text });

const stream: ProbeScript = async (model) => {
	let whole: AIMessageChunk | undefined;
	for await (const chunk of await model.stream(PROMPT))
		whole = whole === undefined ? chunk : concat(whole, chunk);
	return { text: whole?.text ?? '' };
};

async function chatModel(
	where: Where,
	streamed: boolean,
	credential: IDataObject = {},
): Promise<Outcome> {
	const run = await runProbe({
		apiKey: keys.default,
		credential,
		baseUrl: baseUrl(where),
		model: 'echo-1',
		options: { maxRetries: 0 },
		script: streamed ? stream : invoke,
	});
	return run.error ? { error: run.error } : { text: run.output?.text as string };
}

const nodes = [
	['the Chat Completion node', chatCompletion],
	['the Chat Completions Chat Model', chatModel],
] as const;
const ways = [
	['not streamed', false],
	['streamed', true],
] as const;
const cases = nodes.flatMap(([node, run]) =>
	ways.map(([way, streamed]) => [node, way, run, streamed] as const),
);

/** The requests that reached the service's chat endpoint (not the redirect) under the host `host`. */
const chatRequestsAt = (requests: RecordedRequest[], host: string) =>
	requests.filter(
		(request) => request.path === '/v1/chat/completions' && request.headers.host === host,
	);

const hostOf = (origin: string) => new URL(origin).host;

describe('a redirect to the same origin keeps the key: the reply arrives', () => {
	test.each(cases)(
		'%s, %s',
		async (_node, _way, run, streamed) => {
			const outcome = await run('same-origin', streamed);
			expect(outcome).toEqual({ text: PROMPT });
			const requests = await service().requests();
			expect(requests.map((request) => request.path)).toEqual([
				'/__redirect/307/same-origin/v1/chat/completions',
				'/v1/chat/completions',
			]);
			const [followed] = chatRequestsAt(requests, hostOf(service().origin));
			expect(followed.headers.authorization).toBe(`Bearer ${keys.default}`);
			expect((followed.body as { stream?: boolean }).stream ?? false).toBe(streamed);
		},
		15_000,
	); // The first Chat Model run sets up n8n's LangChain adapter.
});

describe('a redirect to another origin never carries the key there', () => {
	test.each(cases)('%s, %s', async (_node, _way, run, streamed) => {
		const outcome = await run('other-origin', streamed);
		const requests = await service().requests();
		// The key went to the origin of the Base URL...
		expect(requests[0].path).toBe('/__redirect/307/other-origin/v1/chat/completions');
		expect(requests[0].headers.authorization).toBe(`Bearer ${keys.default}`);
		// ...and nowhere else: no header of any request to the other origin carries it.
		const elsewhere = requests.filter(
			(request) => request.headers.host !== hostOf(service().origin),
		);
		for (const request of elsewhere) {
			expect(request.headers.host).toBe(hostOf(service().origin.replace('127.0.0.1', 'localhost')));
			expect(JSON.stringify(request.headers)).not.toContain(keys.default);
			expect((request.body as { stream?: boolean }).stream ?? false).toBe(streamed);
		}
		// The user gets a clear error: the other origin's "no key" in its own words (a client that follows the
		// redirect without the key), or the redirect named (a client that does not follow it).
		expect(outcome.text).toBeUndefined();
		const shown = `${outcome.error?.message}\n${outcome.error?.description ?? ''}`;
		expect(shown).toMatch(
			/Missing Authorization header: send 'Authorization: Bearer <API_KEY>'|redirect/i,
		);
	});
});

describe("a redirect outside the credential's allowed domains is refused in n8n's words, and not followed", () => {
	test.each(cases)('%s, %s', async (_node, _way, run, streamed) => {
		const outcome = await run('other-origin', streamed, LIMITED);
		const requests = await service().requests();
		expect(requests.map((request) => `${request.headers.host} ${request.path}`)).toEqual([
			`${hostOf(service().origin)} /__redirect/307/other-origin/v1/chat/completions`,
		]);
		expect(outcome.text).toBeUndefined();
		expect(outcome.error?.message).toMatch(
			/Domain not allowed: This credential is restricted from accessing localhost/,
		);
	});

	test('a redirect to the same origin still answers: the Base URL is always allowed', async () => {
		expect(await chatCompletion('same-origin', false, LIMITED)).toEqual({ text: PROMPT });
	});
});
