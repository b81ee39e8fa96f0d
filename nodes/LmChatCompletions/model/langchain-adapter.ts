import { adapterMessages } from './langchain-content';
import { structuredOutput } from './langchain-structured';
import type { StructuredOutputConfig } from './langchain-structured';
import { countUsage, keepReplyNotes, keepStreamedUsageDetails } from './langchain-usage';

/**
 * What n8n's LangChain adapter (`supplyModel` in @n8n/ai-node-sdk 0.31, n8n 2.41) leaves out of what n8n's
 * AI nodes and LangChain code ask of a chat model, fitted on the adapter it returns and on every adapter
 * its `bindTools` makes:
 *
 * - `bindTools(tools, { tool_choice, strict })`: the adapter drops the second argument; here it is bound
 *   as call options (see call-options.ts), and kept when the tools are bound again (n8n's AI Agent, Force
 *   Tool Call on First Iteration, binds `{ tool_choice: 'any' }` and then its tools once more; the model
 *   never sends a tool twice);
 * - `withStructuredOutput` (langchain-structured.ts): LangChain's own refuses the adapter's messages;
 * - images in every LangChain form, and anything else refused before it is sent (langchain-content.ts);
 * - usage with its details and the service's cost, streamed or not, counted by n8n, and the reply's notes
 *   (model, request id, cost, Fallback Models that failed) in n8n's log (langchain-usage.ts);
 * - LangSmith's parameters: `ls_model_name`, `ls_temperature`, `ls_max_tokens`, `ls_stop`.
 *
 * Only what is found is changed: with another adapter shape this does nothing, and the model still works.
 */

type Json = Record<string, unknown>;
type Method = (this: unknown, ...args: unknown[]) => unknown;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** What the fit needs to know of the model. */
export interface AdapterFit {
	/** The reply is JSON (Response Format): the Basic LLM Chain then parses it. */
	jsonOutput?: boolean;
	/** For LangSmith: the model ID and the Options' temperature and maximum tokens (when set). */
	tracing?: { model: string; temperature?: number; maxTokens?: number };
	/** A failure as the error the AI node shows; as it is when not given. */
	failure?: (error: unknown) => unknown;
}

/** The options of `bindTools(tools, options)` that are bound as call options. */
const BOUND_OPTIONS = ['tool_choice', 'strict'];

function boundOptions(options: unknown): Json {
	if (!isObject(options)) return {};
	return Object.fromEntries(
		BOUND_OPTIONS.filter((name) => options[name] !== undefined).map((name) => [
			name,
			options[name],
		]),
	);
}

/** Each call gets the adapter's messages in forms it reads, and the options bound with the tools (a call's own win). */
function prepareCalls(adapter: Json, bound: Json, failure: (error: unknown) => unknown): void {
	for (const name of ['_generate', '_streamResponseChunks']) {
		const original = adapter[name];
		if (typeof original !== 'function') continue;
		adapter[name] = function (
			this: unknown,
			messages: unknown,
			options: unknown,
			...rest: unknown[]
		) {
			let sent: unknown;
			try {
				sent = adapterMessages(messages);
			} catch (error) {
				throw failure(error);
			}
			const merged = { ...bound };
			// A call's own options win where they are set (LangChain hands unset ones on as undefined).
			for (const [name, value] of Object.entries(isObject(options) ? options : {})) {
				if (value !== undefined) merged[name] = value;
			}
			return (original as Method).call(this, sent, merged, ...rest);
		};
	}
}

/** LangSmith's parameters of the model, beside LangChain's own. */
function traceParameters(adapter: Json, tracing: NonNullable<AdapterFit['tracing']>): void {
	const original = adapter.getLsParams;
	if (typeof original !== 'function') return;
	adapter.getLsParams = function (this: unknown, options: unknown) {
		const stop = isObject(options) && Array.isArray(options.stop) ? options.stop : undefined;
		return {
			...((original as Method).call(this, options) as Json),
			ls_model_name: tracing.model,
			...(tracing.temperature === undefined ? {} : { ls_temperature: tracing.temperature }),
			...(tracing.maxTokens === undefined ? {} : { ls_max_tokens: tracing.maxTokens }),
			...(stop === undefined ? {} : { ls_stop: stop }),
		};
	};
}

function fit(adapter: Json, extra: AdapterFit, bound: Json): void {
	const failure = extra.failure ?? ((error: unknown) => error);
	keepStreamedUsageDetails(adapter);
	keepReplyNotes(adapter);
	prepareCalls(adapter, bound, failure);
	countUsage(adapter);
	if (extra.tracing) traceParameters(adapter, extra.tracing);
	// The Basic LLM Chain parses a model's reply as JSON when the model says it answers in JSON.
	if (extra.jsonOutput) adapter.metadata = { ...(adapter.metadata as Json), output_format: 'json' };
	const bindTools = adapter.bindTools;
	if (typeof bindTools === 'function') {
		adapter.bindTools = function (this: unknown, tools: unknown, options?: unknown) {
			const made = (bindTools as Method).call(this, tools);
			if (isObject(made)) fit(made, extra, { ...bound, ...boundOptions(options) });
			return made;
		};
		adapter.withStructuredOutput = function (
			this: Json,
			schema: unknown,
			config?: StructuredOutputConfig,
		) {
			return structuredOutput(this, schema, config, failure);
		};
	}
}

/** Fits the adapter `supplyModel` returned (see above); returns it. */
export function fitAdapter<T>(supplied: T, extra: AdapterFit = {}): T {
	if (isObject(supplied)) fit(supplied, extra, {});
	return supplied;
}
