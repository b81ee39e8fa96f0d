/**
 * The service's token counts, cost and what else the model learnt of a reply through n8n's adapter. The
 * adapter's finish chunk keeps three totals only, its token counter reads LangChain's streamed usage under
 * other names, and n8n's log keeps of a generation only its text and `generationInfo`:
 *
 * - the streamed message's `usage_metadata` gets the cached input and reasoning tokens again
 *   (`input_token_details.cache_read` and `cache_creation`, `output_token_details.reasoning`), as a call
 *   without streaming has (there the adapter keeps the cache reads only: the writes are added to its message);
 * - a call without streaming gives its counts in the generation's `llmOutput.tokenUsage` under LangChain's
 *   names, `promptTokens`, `completionTokens` and `totalTokens`, as a streamed one does (LangChain makes those
 *   from the streamed message), and as n8n's token tracing reads them by default (the adapter puts the
 *   message's `input_tokens`/`output_tokens` there instead);
 * - n8n's token counter (the adapter's, which reads `input_tokens`/`output_tokens`) reads those names too,
 *   so n8n shows the service's count instead of an estimate, streamed or not;
 * - the reply's notes (the provider metadata's `service_model`, `request_id`, `cost`, `attempts`, `prompt_cache` and `warnings`, see
 *   reply.ts) go on the generation's `generationInfo`, streamed or not, so n8n's log of the model shows which
 *   model answered and which failed before; the token counter hands the cost to n8n as `cost`.
 */

type Json = Record<string, unknown>;
type Method = (this: unknown, ...args: unknown[]) => unknown;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** The SDK's usage details in LangChain's names (none when the service sent none). */
function usageDetails(usage: Json): Json {
	const input = isObject(usage.inputTokenDetails) ? usage.inputTokenDetails : {};
	const output = isObject(usage.outputTokenDetails) ? usage.outputTokenDetails : {};
	return {
		...(typeof input.cacheRead === 'number' || typeof input.cacheCreation === 'number'
			? {
					input_token_details: {
						...(typeof input.cacheRead === 'number' ? { cache_read: input.cacheRead } : {}),
						...(typeof input.cacheCreation === 'number'
							? { cache_creation: input.cacheCreation }
							: {}),
					},
				}
			: {}),
		...(typeof output.reasoning === 'number'
			? { output_token_details: { reasoning: output.reasoning } }
			: {}),
	};
}

/** What of a reply's provider metadata n8n's log keeps (see reply.ts). */
const NOTES = ['service_model', 'request_id', 'cost', 'attempts', 'prompt_cache', 'warnings'];

/** The reply's notes on a generation's `generationInfo` (a LangChain ChatGeneration or chunk). */
function noteReply(generation: unknown, metadata: unknown): void {
	if (!isObject(generation) || !isObject(metadata)) return;
	const notes = NOTES.filter((name) => metadata[name] !== undefined).map((name) => [
		name,
		metadata[name],
	]);
	if (notes.length === 0) return;
	generation.generationInfo = {
		...(generation.generationInfo as Json | undefined),
		...Object.fromEntries(notes),
	};
}

/** The counts of the adapter's `llmOutput.tokenUsage` (the message's usage) under LangChain's names. */
function namedCounts(llmOutput: unknown): Json | undefined {
	if (!isObject(llmOutput)) return undefined;
	const usage = llmOutput.tokenUsage;
	if (!isObject(usage) || typeof usage.output_tokens !== 'number') return undefined;
	return {
		...llmOutput,
		tokenUsage: {
			promptTokens: usage.input_tokens,
			completionTokens: usage.output_tokens,
			totalTokens: usage.total_tokens,
		},
	};
}

/** A message's usage gets the prompt cache's writes (`cache_creation`) its reply's notes count. */
function keepCacheWrites(message: unknown): void {
	if (!isObject(message) || !isObject(message.usage_metadata)) return;
	const metadata = message.response_metadata;
	const cache = isObject(metadata) ? metadata.prompt_cache : undefined;
	if (!isObject(cache) || typeof cache.write_tokens !== 'number') return;
	const usage = message.usage_metadata;
	usage.input_token_details = {
		...(isObject(usage.input_token_details) ? usage.input_token_details : {}),
		cache_creation: cache.write_tokens,
	};
}

/**
 * A call without streaming: the reply's notes (its `response_metadata`, from the result's provider metadata)
 * on the generation, the cache writes on its message's usage, and its counts under LangChain's names.
 */
export function keepReplyNotes(adapter: Json): void {
	const original = adapter._generate;
	if (typeof original !== 'function') return;
	adapter._generate = async function (this: unknown, ...args: unknown[]) {
		const result = (await (original as Method).apply(this, args)) as Json;
		const generations =
			isObject(result) && Array.isArray(result.generations) ? result.generations : [];
		for (const generation of generations) {
			const message = isObject(generation) ? generation.message : undefined;
			noteReply(generation, isObject(message) ? message.response_metadata : undefined);
			keepCacheWrites(message);
		}
		const llmOutput = isObject(result) ? namedCounts(result.llmOutput) : undefined;
		return llmOutput === undefined ? result : { ...result, llmOutput };
	};
}

/** The cost n8n's tracing still sees of a call: on its first generation. */
function tracedCost(result: unknown): number | undefined {
	const generations = isObject(result) ? result.generations : undefined;
	const first: unknown =
		Array.isArray(generations) && Array.isArray(generations[0]) ? generations[0][0] : undefined;
	const info = isObject(first) ? first.generationInfo : undefined;
	return isObject(info) && typeof info.cost === 'number' ? info.cost : undefined;
}

/**
 * Streams as the adapter does, with the finish chunk's usage complete and the reply's notes on it: the
 * model's finish chunk (its usage and provider metadata) is read on its way into the adapter (through a
 * view of the adapter whose model is watched), and the adapter's chunk for it is the next it yields.
 */
export function keepStreamedUsageDetails(adapter: Json): void {
	const original = adapter._streamResponseChunks;
	if (typeof original !== 'function') return;
	adapter._streamResponseChunks = async function* (this: Json, ...args: unknown[]) {
		const model = this.chatModel;
		if (!isObject(model) || typeof model.stream !== 'function') {
			yield* (original as Method).apply(this, args) as AsyncIterable<unknown>;
			return;
		}
		let finish: Json | undefined;
		const watched = Object.create(model) as Json;
		watched.stream = async function* (...streamArgs: unknown[]) {
			for await (const chunk of (model.stream as Method).apply(
				model,
				streamArgs,
			) as AsyncIterable<unknown>) {
				if (isObject(chunk) && chunk.type === 'finish') finish = chunk;
				yield chunk;
			}
		};
		const view = Object.create(this, { chatModel: { value: watched } }) as Json;
		for await (const chunk of (original as Method).apply(view, args) as AsyncIterable<unknown>) {
			if (finish !== undefined && isObject(chunk)) {
				const message = chunk.message;
				if (isObject(finish.usage) && isObject(message) && isObject(message.usage_metadata)) {
					Object.assign(message.usage_metadata, usageDetails(finish.usage));
				}
				noteReply(chunk, finish.providerMetadata);
				finish = undefined;
			}
			yield chunk;
		}
	};
}

/**
 * n8n's token counter reads LangChain's names for the counts (`promptTokens`, `completionTokens`) as well as
 * the adapter's own, and the cost the service reported.
 */
export function countUsage(adapter: Json): void {
	const callbacks = Array.isArray(adapter.callbacks) ? (adapter.callbacks as unknown[]) : [];
	for (const handler of callbacks) {
		const options = isObject(handler) ? handler.options : undefined;
		if (!isObject(options) || typeof options.tokensUsageParser !== 'function') continue;
		const parse = options.tokensUsageParser as Method;
		const counted = function (this: unknown, result: unknown) {
			const llmOutput = isObject(result) ? result.llmOutput : undefined;
			const usage = isObject(llmOutput) ? llmOutput.tokenUsage : undefined;
			if (isObject(usage) && usage.output_tokens === undefined) {
				const completionTokens = Number(usage.completionTokens ?? 0);
				const promptTokens = Number(usage.promptTokens ?? 0);
				if (completionTokens > 0) {
					return { completionTokens, promptTokens, totalTokens: completionTokens + promptTokens };
				}
			}
			return parse.call(this, result) as Json;
		};
		options.tokensUsageParser = function (this: unknown, result: unknown) {
			const counts = counted.call(this, result);
			const cost = tracedCost(result);
			return cost === undefined || !isObject(counts) ? counts : { ...counts, cost };
		};
	}
}
