/**
 * The service's token counts through n8n's adapter when the AI node streams. The adapter's finish chunk
 * keeps three totals only, and its token counter reads LangChain's streamed usage under other names:
 *
 * - the streamed message's `usage_metadata` gets the cached input and reasoning tokens again
 *   (`input_token_details.cache_read`, `output_token_details.reasoning`), as a call without streaming has;
 * - n8n's token counter reads `promptTokens`/`completionTokens` (LangChain's names for streamed usage) as
 *   well as `input_tokens`/`output_tokens`, so n8n shows the service's count instead of an estimate.
 */

type Json = Record<string, unknown>;
type Method = (this: unknown, ...args: unknown[]) => unknown;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** The SDK's usage details in LangChain's names (none when the service sent none). */
function usageDetails(usage: Json): Json {
	const input = isObject(usage.inputTokenDetails) ? usage.inputTokenDetails : {};
	const output = isObject(usage.outputTokenDetails) ? usage.outputTokenDetails : {};
	return {
		...(typeof input.cacheRead === 'number'
			? { input_token_details: { cache_read: input.cacheRead } }
			: {}),
		...(typeof output.reasoning === 'number'
			? { output_token_details: { reasoning: output.reasoning } }
			: {}),
	};
}

/**
 * Streams as the adapter does, with the finish chunk's usage complete: the model's finish chunk is read
 * on its way into the adapter (through a view of the adapter whose model is watched).
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
		let usage: Json | undefined;
		const watched = Object.create(model) as Json;
		watched.stream = async function* (...streamArgs: unknown[]) {
			for await (const chunk of (model.stream as Method).apply(
				model,
				streamArgs,
			) as AsyncIterable<unknown>) {
				if (isObject(chunk) && chunk.type === 'finish' && isObject(chunk.usage))
					usage = chunk.usage;
				yield chunk;
			}
		};
		const view = Object.create(this, { chatModel: { value: watched } }) as Json;
		for await (const chunk of (original as Method).apply(view, args) as AsyncIterable<unknown>) {
			const message = isObject(chunk) ? chunk.message : undefined;
			if (usage !== undefined && isObject(message) && isObject(message.usage_metadata)) {
				Object.assign(message.usage_metadata, usageDetails(usage));
			}
			yield chunk;
		}
	};
}

/** n8n's token counter reads LangChain's streamed usage (`promptTokens`, `completionTokens`) as well as the adapter's own. */
export function countStreamedUsage(adapter: Json): void {
	const callbacks = Array.isArray(adapter.callbacks) ? (adapter.callbacks as unknown[]) : [];
	for (const handler of callbacks) {
		const options = isObject(handler) ? handler.options : undefined;
		if (!isObject(options) || typeof options.tokensUsageParser !== 'function') continue;
		const parse = options.tokensUsageParser as Method;
		options.tokensUsageParser = function (this: unknown, result: unknown) {
			const llmOutput = isObject(result) ? result.llmOutput : undefined;
			const usage = isObject(llmOutput) ? llmOutput.tokenUsage : undefined;
			if (isObject(usage) && usage.output_tokens === undefined) {
				const completionTokens = Number(usage.completionTokens ?? 0);
				const promptTokens = Number(usage.promptTokens ?? 0);
				if (completionTokens > 0) {
					return { completionTokens, promptTokens, totalTokens: completionTokens + promptTokens };
				}
			}
			return parse.call(this, result);
		};
	}
}
