/**
 * The Chat Completions Embeddings node through n8n's engine, as n8n's vector stores call it, against the
 * local service: the vectors of the texts in their order whatever the reply's order, batches sent at once,
 * the tokens in n8n's log of the sub-node, and each failure in words that say what to do.
 */
import { runEmbeddings } from './embeddings-probe.cts';
import type { EmbeddingsScript } from './embeddings-probe.cts';
import { knobs } from '../support/knobs.cts';
import { keys, startService, useLocalService } from '../support/service.cts';
import type { LocalService } from '../support/service.cts';

const service = useLocalService();

const texts = Array.from(
	{ length: 25 },
	(_, index) => `Document number ${index} about topic ${index % 4}`,
);

/** The service's vector of each text, asked one by one (and then forgotten by the request log). */
async function vectorsOf(inputs: string[], dimensions?: number): Promise<number[][]> {
	const vectors: number[][] = [];
	for (const input of inputs) {
		const response = await fetch(`${service().baseUrl}/embeddings`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${keys.rag}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ model: 'embed-1', input, dimensions }),
		});
		vectors.push(
			((await response.json()) as { data: [{ embedding: number[] }] }).data[0].embedding,
		);
	}
	await service().clearRequests();
	return vectors;
}

const embedAll: EmbeddingsScript = async (embeddings) => ({
	vectors: await embeddings.embedDocuments(texts),
});

const rag = (options = {}, script = embedAll, on: LocalService = service()) =>
	runEmbeddings({ apiKey: keys.rag, baseUrl: on.baseUrl, options, script });

test('gives each text its vector, in order, in batches of Batch Size; the tokens in n8n’s log', async () => {
	const expected = await vectorsOf(texts);
	const run = await rag({ batchSize: 10 });
	expect(run.error).toBeUndefined();
	expect(run.output?.vectors).toEqual(expected);
	const requests = await service().requests();
	expect(requests.map((request) => request.path)).toEqual(Array(3).fill('/v1/embeddings'));
	const bodies = requests.map((request) => request.body as { input: string[] });
	expect(bodies.flatMap((body) => body.input).sort()).toEqual([...texts].sort());
	for (const body of bodies) {
		expect(body).toEqual({ model: 'embed-1', input: expect.any(Array), encoding_format: 'float' });
	}
	expect(run.log).toHaveLength(1);
	expect(run.log[0].input).toEqual({ documents: texts });
	expect(run.log[0].output).toEqual({
		response: run.output?.vectors,
		tokenUsage: { promptTokens: 150, completionTokens: 0, totalTokens: 150 },
	});
});

test('embeds a query; Dimensions is sent and every vector has that length', async () => {
	const [expected] = await vectorsOf(['topic 3'], 64);
	const run = await rag({ dimensions: 64 }, async (embeddings) => ({
		query: await embeddings.embedQuery('topic 3'),
	}));
	expect(run.output?.query).toEqual(expected);
	const [request] = await service().requests();
	expect(request.body).toMatchObject({ input: ['topic 3'], dimensions: 64 });
	expect(run.log[0]).toMatchObject({
		input: { query: 'topic 3' },
		output: { tokenUsage: { totalTokens: 2 } },
	});
});

test('Dimensions from an expression that finds nothing: an error naming the option and the field, nothing sent', async () => {
	const run = await runEmbeddings({
		apiKey: keys.rag,
		baseUrl: service().baseUrl,
		options: { dimensions: '={{ $json.size }}' },
		script: async (embeddings) => ({ query: await embeddings.embedQuery('topic 3') }),
		store: { items: [{ json: { question: 'topic 3' } }] },
	});
	expect(run.error?.message).toMatch(
		/Dimensions: is empty because its expression \{\{ \$json\.size \}\} finds no field "size" in the input item/,
	);
	expect(await service().requests()).toHaveLength(0);
});

test('sends the batches of a large insert at the same time', async () => {
	const slow = await startService({ args: ['--latency-ms', '200'] });
	try {
		const started = Date.now();
		const run = await rag({ batchSize: 5 }, embedAll, slow);
		expect(run.error).toBeUndefined();
		// 5 batches of 200 ms each, not one after the other.
		expect(Date.now() - started).toBeLessThan(900);
		expect((await slow.traffic()).rag.maxInFlight).toBe(5);
	} finally {
		await slow.stop();
	}
});

test.each([
	['shuffled', { shuffled: true }],
	['base64', { base64: true }],
])('a reply %s still gives each text its own vector', async (_name, xLocal) => {
	const expected = await vectorsOf(texts);
	const run = await rag({ batchSize: 10, ...knobs(xLocal).options });
	const vectors = run.output?.vectors as number[][];
	expect(vectors).toHaveLength(texts.length);
	vectors.forEach((vector, index) =>
		vector.forEach((value, at) => expect(value).toBeCloseTo(expected[index][at], 6)),
	);
});

test.each([
	['drop_last', 'answered 9 vectors for 10 texts'],
	[
		'no_index',
		'sent entry 1 of its reply without an index, so which text its vector belongs to is unknown',
	],
	['not_numbers', 'sent a vector for text 1 of the request whose number 1 of 512 is the text "'],
])('a reply that does not match (%s) fails the call and names the model', async (knob, said) => {
	const run = await rag({ batchSize: 10, maxRetries: 0, ...knobs({ [knob]: true }).options });
	expect(run.error?.message).toContain(`The embedding model "embed-1" ${said}`);
	expect(run.error?.description).toMatch(/^No vector of this reply is used/);
	expect(run.log[0].error?.message).toBe(run.error?.message);
	expect(run.output).toBeUndefined();
});

test.each([
	['numbers', {}, 'vector'],
	['base64', { base64: true }, 'base64 vector'],
])(
	'a vector holding Infinity (%s) fails the call, naming the model, the text and the number',
	async (_name, encoding, vector) => {
		const run = await rag({ ...knobs({ ...encoding, not_finite: true }).options });
		expect(run.error?.message).toBe(
			`The embedding model "embed-1" sent a ${vector} for text 25 of the request whose number 2 of 512 is Infinity, not a finite number`,
		);
		expect(run.error?.description).toMatch(/^No vector of this reply is used/);
		expect(run.output).toBeUndefined();
	},
);

test('vectors of another length than Dimensions, all alike, fail the call with the fix', async () => {
	const run = await rag({
		batchSize: 10,
		dimensions: 64,
		...knobs({ ignore_dimensions: true }).options,
	});
	expect(run.error?.message).toBe(
		'The embedding model "embed-1" sent vectors of 512 numbers where Options > Dimensions asks for 64: the model does not give vectors of that length (remove Dimensions, or choose a model that takes it)',
	);
	expect(run.error?.description).toContain(
		'The call stopped at this failure: 3 of its 3 batches were sent and are not used.',
	);
	expect(run.output).toBeUndefined();
});

test('a batch sent again after a 500 counts once among the batches sent', async () => {
	const run = await rag({
		batchSize: 10,
		dimensions: 64,
		...knobs({
			ignore_dimensions: true,
			fail_first: { id: 'embed-once-500', count: 1, status: 500, retry_after: '0.2' },
		}).options,
	});
	expect(run.error?.message).toMatch(
		/sent vectors of 512 numbers where Options > Dimensions asks for 64/,
	);
	expect(run.error?.description).toContain(
		'The call stopped at this failure: 3 of its 3 batches were sent and are not used.',
	);
	// Four requests: one batch twice (its 500, then its retry), each of the three batches at least once.
	const batches = (await service().requests()).map(
		(request) => (request.body as { input: string[] }).input[0],
	);
	expect(batches).toHaveLength(4);
	expect(new Set(batches).size).toBe(3);
});

test('a batch that fails cancels the others in flight, and the error counts them', async () => {
	// 200 ms per input: the batches of 10 take 2 s, the last one (5 texts, its reply bad) 1 s.
	const slow = await startService({ args: ['--embedding-ms-per-input', '200'] });
	try {
		const bad = texts[22];
		const run = await rag(
			{ batchSize: 10, ...knobs({ for_input: bad, not_finite: true }).options },
			embedAll,
			slow,
		);
		expect(run.error?.message).toBe(
			'The embedding model "embed-1" sent a vector for text 5 of the request whose number 2 of 512 is Infinity, not a finite number',
		);
		expect(run.error?.description).toContain(
			'The call stopped at this failure: 3 of its 3 batches were sent and are not used (2 cancelled in flight).',
		);
		const requests = await slow.endedRequests();
		const ended = (holds: boolean) =>
			requests
				.filter((request) => (request.body as { input: string[] }).input.includes(bad) === holds)
				.map((request) => request.ended?.by);
		expect(ended(true)).toEqual(['answer']);
		expect(ended(false)).toEqual(['client', 'client']);
	} finally {
		await slow.stop();
	}
});

test('a 429 is waited out and a 500 retried: the vectors come', async () => {
	const failFirst = (id: string, status: number) =>
		knobs({ fail_first: { id, count: 1, status, retry_after: '0.2' } }).options;
	const expected = await vectorsOf(['a b']);
	for (const [id, status] of [
		['embed-429', 429],
		['embed-500', 500],
	] as const) {
		await service().clearRequests();
		const run = await rag(failFirst(id, status), async (embeddings) => ({
			vectors: await embeddings.embedDocuments(['a b']),
		}));
		expect(run.output?.vectors).toEqual(expected);
		expect(await service().requests()).toHaveLength(2);
	}
});

test.each([
	[
		'a chat model',
		keys.rag,
		'echo-1',
		'Model "echo-1" cannot embed: it is not an embedding model',
		/^The service answered "You are not allowed to generate embeddings from this model" \(HTTP 400, type invalid_request_error\)\. Choose an embedding model/,
	],
	[
		'a wrong key',
		keys.expired,
		'embed-1',
		'The service rejected the API key',
		/\(HTTP 401, type invalid_request_error, code invalid_api_key\)\. Open the credential/,
	],
	[
		"a model outside the key's group",
		keys.default,
		'embed-1',
		'Model "embed-1" is not available to this API key',
		/\(HTTP 403, type invalid_request_error, code model_not_found\)\. Pick the model from the list/,
	],
	[
		"a gateway's 403 that says so only in words",
		keys.fallback,
		'fault-403-new-api-no-access',
		'Model "fault-403-new-api-no-access" is not available to this API key',
		/^The service answered "该令牌无权访问模型 fault-403-new-api-no-access" \(HTTP 403, type new_api_error\)\. Pick the model from the list/,
	],
	[
		'a gateway without a channel',
		keys.fallback,
		'fault-503-one-api-no-channel',
		`Model "fault-503-one-api-no-channel" is not available to this API key's group: the gateway has no channel for it`,
		/HTTP 503/,
	],
])(
	'%s: one request, never retried nor another model, and the fix',
	async (_name, apiKey, model, message, description) => {
		const run = await runEmbeddings({
			apiKey,
			baseUrl: service().baseUrl,
			model,
			script: embedAll,
		});
		expect(run.error?.message).toBe(message);
		expect(run.error?.description).toMatch(description);
		expect(
			(await service().requests()).map((request) => (request.body as { model: string }).model),
		).toEqual([model]);
	},
);

test.each([
	[
		'an empty document',
		async (embeddings: Parameters<EmbeddingsScript>[0]) => ({
			v: await embeddings.embedDocuments(['a', '']),
		}),
		'Document 2 of 2: is empty',
	],
	[
		'an empty query',
		async (embeddings: Parameters<EmbeddingsScript>[0]) => ({ v: await embeddings.embedQuery('') }),
		'The query to search by: is empty',
	],
])('%s is a clear error, and nothing is sent', async (_name, script, message) => {
	const run = await rag({}, script);
	expect(run.error?.message).toBe(message);
	expect(run.error?.description).toMatch(/empty/);
	expect(await service().requests()).toEqual([]);
});

test.each<[string, Parameters<typeof runEmbeddings>[0]['store'], string, string[][]]>([
	[
		'a Prompt whose expression names a field the item lacks',
		{
			prompt: '={{ $json.q }}',
			items: [{ json: { q: 'holidays' } }, { json: { question: 'pay' } }],
		},
		'The query to search by: is empty because its expression {{ $json.q }} finds no field "q" in the input item',
		[['holidays']],
	],
	[
		'a root without a Prompt',
		undefined,
		'The query to search by: is missing: the vector store passed none, as it does when the expression of its Prompt names a field the input item lacks',
		[],
	],
])(
	'a search without a query (%s) says why in the words of the chat nodes, and sends nothing for it',
	async (_name, store, message, sent) => {
		const run = await runEmbeddings({
			apiKey: keys.rag,
			baseUrl: service().baseUrl,
			store,
			script: async (embeddings, prompt) => {
				for (let item = 0; item < (store?.items?.length ?? 1); item++)
					// Without a Prompt, the root passes no query at all.
					await embeddings.embedQuery((store ? prompt(item) : undefined) as string);
				return {};
			},
		});
		expect(run.error?.message).toBe(message);
		expect(run.error?.description).toMatch(/^An empty query has nothing to search by/);
		expect(
			(await service().requests()).map((request) => (request.body as { input: string[] }).input),
		).toEqual(sent);
	},
);
