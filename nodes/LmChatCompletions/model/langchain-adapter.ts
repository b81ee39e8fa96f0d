/**
 * Two gaps of n8n's LangChain adapter (`supplyModel` in @n8n/ai-node-sdk 0.31, n8n 2.41) closed on the
 * adapter it returns, and on every adapter its `bindTools` makes (the AI Agent binds its tools):
 *
 * - Images: AI nodes put images in a message as `image_url` parts (AI Agent, Basic LLM Chain); the
 *   adapter's message conversion drops that part type, so the model never sees the image. They are
 *   handed on as LangChain's standard `image` parts, which it converts into file parts.
 * - Streamed usage: when the agent streams, LangChain reports the finish chunk's usage as
 *   `promptTokens`/`completionTokens`, while the adapter's token counter reads `input_tokens`/
 *   `output_tokens`; n8n then shows an estimate instead of the service's count. The counter reads both.
 *
 * Only what is found is changed: with another adapter shape this does nothing, and the model still works
 * (without images, with estimated usage while streaming).
 */

type Json = Record<string, unknown>;
type Method = (this: unknown, ...args: unknown[]) => unknown;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** An `image_url` part as LangChain's standard image part (URL or data URI, with its detail). */
function standardImage(part: Json): Json {
	const image = part.image_url;
	const url = typeof image === 'string' ? image : isObject(image) ? image.url : undefined;
	const detail = isObject(image) ? image.detail : undefined;
	return {
		type: 'image',
		url,
		...(typeof detail === 'string' ? { metadata: { detail } } : {}),
	};
}

/** The message, or a copy of it (same class) whose `image_url` parts are standard image parts. */
function withStandardImages(message: unknown): unknown {
	if (!isObject(message) || !Array.isArray(message.content)) return message;
	const parts = message.content as unknown[];
	if (!parts.some((part) => isObject(part) && part.type === 'image_url')) return message;
	const copy = Object.assign(
		Object.create(Object.getPrototypeOf(message) as object) as Json,
		message,
	);
	copy.content = parts.map((part) =>
		isObject(part) && part.type === 'image_url' ? standardImage(part) : part,
	);
	return copy;
}

function passImages(adapter: Json, name: '_generate' | '_streamResponseChunks'): void {
	const original = adapter[name];
	if (typeof original !== 'function') return;
	adapter[name] = function (this: unknown, messages: unknown, ...rest: unknown[]) {
		const converted = Array.isArray(messages) ? messages.map(withStandardImages) : messages;
		return (original as Method).call(this, converted, ...rest);
	};
}

/** Reads LangChain's streamed usage (`promptTokens`, `completionTokens`) as well as the adapter's own. */
function countStreamedUsage(adapter: Json): void {
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

/** Fits the adapter `supplyModel` returned (see above); returns it. */
export function fitAdapter<T>(supplied: T, extra: { jsonOutput?: boolean } = {}): T {
	if (!isObject(supplied)) return supplied;
	const adapter: Json = supplied;
	passImages(adapter, '_generate');
	passImages(adapter, '_streamResponseChunks');
	countStreamedUsage(adapter);
	// The Basic LLM Chain parses a model's reply as JSON when the model says it answers in JSON.
	if (extra.jsonOutput) adapter.metadata = { ...(adapter.metadata as Json), output_format: 'json' };
	const bindTools = adapter.bindTools;
	if (typeof bindTools === 'function') {
		adapter.bindTools = function (this: unknown, ...args: unknown[]) {
			return fitAdapter((bindTools as Method).apply(this, args), extra);
		};
	}
	return supplied;
}
