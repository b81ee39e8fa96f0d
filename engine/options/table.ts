/**
 * The option table (`OPTIONS`, this file: each option once, with label, default, range, wire field and
 * fix), the UI collection made from it (`properties.ts`) and the checked values read from it (`read.ts`).
 */
import { AUTO } from '../concurrency/limiter';
import { fallbackRule } from '../failures/table';

/**
 * Every option of the Options collection, declared once: its name (saved in workflows), label, default,
 * range, wire field and the fix a bad value gets. The UI properties (`properties.ts`) and the values the
 * request builder uses (`read.ts`) are both made from this table, so they cannot disagree.
 *
 * `default` is what the UI shows when the option is added. An option with a `wire` field is sent only
 * when set; one without (a setting of the node itself) takes `default` when unset.
 */

interface Common {
	name: string;
	label: string;
	description: string;
	/** Shown only while another option has one of these values. */
	showWhen?: { option: string; values: readonly string[] };
	/** A line under the field, e.g. what a special value means. */
	hint?: string;
	/** An option of one sub-node only: the chat nodes never show or send it. */
	only?: 'embeddings' | 'reranker';
}

export interface NumberOption extends Common {
	kind: 'number';
	default: number;
	min: number;
	max?: number;
	/** Whole numbers only; otherwise `precision` decimals in the UI (none: the value as typed, e.g. 20 or 0.5). */
	whole: boolean;
	precision?: number;
	/** The request body field; none for the node's own settings. */
	wire?: string;
	/** How to fix a bad value, shown after what is wrong. */
	fix: string;
}

export interface BooleanOption extends Common {
	kind: 'boolean';
	default: boolean;
}

export interface JsonOption extends Common {
	kind: 'json';
	default: string;
}

/** A text field; `rows` above 1 makes it a box of several lines. */
export interface TextOption extends Common {
	kind: 'text';
	default: string;
	rows?: number;
	placeholder?: string;
	/** The request body field, sent only when the option is set; none for the node's own settings. */
	wire?: string;
}

export interface ChoiceOption extends Common {
	kind: 'choice';
	default: string;
	choices: ReadonlyArray<{ name: string; value: string; description: string }>;
	/** The request body field, sent only when the option is set; none for the node's own settings. */
	wire?: string;
}

export type OptionSpec = NumberOption | BooleanOption | JsonOption | TextOption | ChoiceOption;

const STRUCTURED = ['jsonObject', 'jsonSchema'];

const MS_FIX = 'Use a whole number of milliseconds, e.g. 60000.';

/**
 * In the order the UI lists them: what users change most first (Temperature and Top P, Maximum Tokens,
 * Response Format with what belongs to it, Stream), what is rarely changed (Stream Usage, on by default) and the
 * tuning of requests (Concurrency, Timeout, retries) last.
 */
/** Options > Extra Body's description, with a parameter of the node's endpoint as the example. */
function extraBodyDescription(example: string): string {
	return `JSON object merged into the request body, for parameters this node has no field for, e.g. ${example}`;
}

/**
 * Timeout's and Extra Body's descriptions for the nodes that neither stream nor have Retry Timeouts (Embeddings,
 * Reranker, Media, Account), with `extraBodyExample` a parameter of their own endpoint (none: no Extra Body).
 */
export function endpointDescriptions(
	extraBodyExample?: string,
): Partial<Record<'timeout' | 'extraBody', string>> {
	return {
		timeout:
			'How long to wait for each reply, in milliseconds. There is no hidden upper limit. A request that times out is not sent again.',
		...(extraBodyExample === undefined
			? {}
			: { extraBody: extraBodyDescription(extraBodyExample) }),
	};
}

export const OPTIONS = [
	{
		kind: 'number',
		name: 'temperature',
		label: 'Temperature',
		default: 1,
		min: 0,
		max: 2,
		whole: false,
		precision: 2,
		wire: 'temperature',
		fix: 'Use a value from 0 to 2, e.g. 0.7.',
		description:
			'Sampling temperature from 0 to 2: lower values give more focused answers, higher values more varied ones',
	},
	{
		kind: 'number',
		name: 'topP',
		label: 'Top P',
		default: 1,
		min: 0,
		max: 1,
		whole: false,
		precision: 2,
		wire: 'top_p',
		fix: 'Use a value from 0 to 1, e.g. 0.9.',
		description:
			'Nucleus sampling from 0 to 1: only the most likely tokens whose probabilities add up to this value are considered (top_p)',
	},
	{
		kind: 'number',
		name: 'maxTokens',
		label: 'Maximum Tokens',
		default: 1024,
		min: 1,
		whole: true,
		wire: 'max_tokens',
		fix: 'Use a whole number such as 1024.',
		description: 'Upper bound on the number of tokens in the reply (max_tokens)',
	},
	{
		kind: 'choice',
		name: 'responseFormat',
		label: 'Response Format',
		default: 'text',
		choices: [
			{ name: 'Text', value: 'text', description: 'Any text; nothing is sent' },
			{
				name: 'JSON Object',
				value: 'jsonObject',
				description: 'A JSON object (response_format json_object), parsed into the json field',
			},
			{
				name: 'JSON Schema',
				value: 'jsonSchema',
				description:
					'JSON that follows your schema (response_format json_schema), checked and parsed into the json field',
			},
		],
		description:
			'The shape of the reply. JSON replies are parsed and checked in n8n; models behind the gateway that reject response_format get the schema as an instruction instead.',
	},
	{
		kind: 'json',
		name: 'jsonSchema',
		label: 'JSON Schema',
		default:
			'{\n  "$comment": "An example: replace it with the fields of the reply you want",\n  "type": "object",\n  "properties": {\n    "name": { "type": "string" },\n    "age": { "type": "integer" }\n  },\n  "required": ["name", "age"],\n  "additionalProperties": false\n}',
		showWhen: { option: 'responseFormat', values: ['jsonSchema'] },
		description:
			'The JSON Schema the reply must follow. It is sent to the service and checked in n8n; the parsed reply is in the json field.',
	},
	{
		kind: 'boolean',
		name: 'strictSchema',
		label: 'Strict Schema',
		default: false,
		showWhen: { option: 'responseFormat', values: ['jsonSchema'] },
		description:
			'Whether to ask the service to follow the schema exactly (json_schema.strict). Providers that support it then need every property in required and additionalProperties false; the node checks the reply either way.',
	},
	{
		kind: 'number',
		name: 'repairAttempts',
		label: 'Repair Attempts',
		default: 1,
		min: 0,
		max: 5,
		whole: true,
		fix: 'Use a whole number from 0 to 5, e.g. 1; 0 switches repairs off.',
		showWhen: { option: 'responseFormat', values: STRUCTURED },
		description:
			'How often a reply that is not valid JSON (or breaks the schema) is sent back to the model with what is wrong, asking for a corrected answer. 0 fails at once.',
	},
	{
		kind: 'boolean',
		name: 'stream',
		label: 'Stream',
		default: false,
		description:
			'Whether to receive the reply as it is written (Server-Sent Events) and pass the text on to a Chat Trigger or Webhook that streams its response. Not added: the node streams exactly when the workflow streams its response. Off behind a streaming trigger: the reply reaches the chat as one piece. The output item is the same.',
	},
	{
		kind: 'choice',
		name: 'outputModalities',
		label: 'Output Modalities',
		default: 'image,text',
		choices: [
			{
				name: 'Image and Text',
				value: 'image,text',
				description: 'Images and text (modalities: ["image", "text"])',
			},
			{ name: 'Text', value: 'text', description: 'Text only (modalities: ["text"])' },
		],
		description:
			'What the model answers with (modalities), for image models that answer in chat (OpenRouter, Vercel AI Gateway): the images become binary data image_1, image_2, ... of the output item. Not added, nothing is sent.',
	},
	{
		kind: 'choice',
		name: 'reasoningEffort',
		label: 'Reasoning Effort',
		default: 'medium',
		wire: 'reasoning_effort',
		// In order of effort, as users compare them (not alphabetical).
		choices: [
			{
				name: 'None',
				value: 'none',
				description: 'No reasoning, where the model allows it (none)',
			},
			{ name: 'Minimal', value: 'minimal', description: 'Hardly any reasoning (minimal)' },
			{ name: 'Low', value: 'low', description: 'Reason briefly (low)' },
			{ name: 'Medium', value: 'medium', description: 'The usual balance (medium)' },
			{ name: 'High', value: 'high', description: 'Reason at length (high)' },
			{ name: 'Extra High', value: 'xhigh', description: 'More than high (xhigh)' },
			{ name: 'Max', value: 'max', description: 'As much as the model can (max)' },
		],
		description:
			'How much a reasoning model thinks before it answers (reasoning_effort), for any model ID; not every model takes every value. Not added, nothing is sent and the model decides.',
	},
	{
		kind: 'choice',
		name: 'promptCaching',
		label: 'Prompt Caching',
		default: 'off',
		choices: [
			{ name: 'Off', value: 'off', description: 'Nothing is sent' },
			{
				name: 'Automatic',
				value: 'automatic',
				description:
					'The gateway places the cache breakpoint itself (a top-level cache_control, as OpenRouter takes it)',
			},
			{
				name: 'System Message',
				value: 'systemMessage',
				description:
					'A cache breakpoint on the last text of the system message (cache_control on the content part, as OpenRouter, new-api and LiteLLM forward it)',
			},
		],
		description:
			'Whether models that cache prompts (Claude behind a gateway) keep the start of the prompt for the next requests: cached input costs less and answers sooner. The usage of each reply counts the tokens read from and written to the cache.',
	},
	{
		kind: 'choice',
		name: 'promptCacheTtl',
		label: 'Prompt Cache TTL',
		default: '5m',
		showWhen: { option: 'promptCaching', values: ['automatic', 'systemMessage'] },
		choices: [
			{ name: '5 Minutes', value: '5m', description: "The provider's default: no ttl is sent" },
			{
				name: '1 Hour',
				value: '1h',
				description: 'ttl "1h": writing to the cache costs more, reading from it the same',
			},
		],
		description: 'How long the cached prompt is kept after its last use',
	},
	{
		kind: 'number',
		name: 'dimensions',
		label: 'Dimensions',
		only: 'embeddings',
		default: 1024,
		min: 1,
		whole: true,
		wire: 'dimensions',
		fix: 'Use a whole number of dimensions the model offers, e.g. 1024.',
		description:
			'How many numbers each vector has (dimensions), for models that can give shorter vectors (e.g. text-embedding-3-small). Not added, nothing is sent and the model gives its own length. Every vector in one vector store must have the same length.',
	},
	{
		kind: 'number',
		name: 'batchSize',
		label: 'Batch Size',
		only: 'embeddings',
		default: 32,
		min: 1,
		max: 2048,
		whole: true,
		fix: 'Use a whole number from 1 to 2048, e.g. 32.',
		description:
			'How many texts go into one request. The batches of a large insert are sent at the same time (Auto), so smaller batches finish sooner. Lower it for a gateway that refuses large batches (some providers take at most 10 or 16).',
	},
	{
		kind: 'number',
		name: 'topN',
		label: 'Top N',
		only: 'reranker',
		default: 4,
		min: 1,
		whole: true,
		fix: 'Use a whole number of documents from 1 up, e.g. 4.',
		description:
			'How many documents come back, best first. Not added, every document the vector store fetched comes back, in the new order (its Limit decides how many).',
	},
	{
		kind: 'number',
		name: 'minScore',
		label: 'Minimum Score',
		only: 'reranker',
		default: 0.5,
		min: -1000,
		max: 1000,
		whole: false,
		fix: 'Use a number, e.g. 0.5: most rerank models score from 0 (unrelated) to 1 (a match).',
		description:
			"Documents the model scores below this are left out, even when fewer than Top N remain. Not added, none is left out. Scores are the model's own: most give 0 to 1.",
	},
	{
		kind: 'text',
		name: 'fallbackModels',
		label: 'Fallback Models',
		default: '',
		rows: 3,
		placeholder: 'e.g. model-b, model-c',
		description: `Model IDs to try in order, one per line or separated by commas. ${fallbackRule()} Each model gets its own retries, waits and Timeout. The item's attempts field lists the models that failed.`,
	},
	{
		kind: 'json',
		name: 'extraBody',
		label: 'Extra Body',
		default: '{}',
		description: extraBodyDescription('{"seed": 7}'),
	},
	{
		kind: 'number',
		name: 'maxImageSize',
		label: 'Max Image Size (MB)',
		default: 20,
		min: 0.001,
		max: 1024,
		whole: false,
		fix: 'Use a size in megabytes, e.g. 20.',
		description: 'Images larger than this are refused before anything is sent',
	},
	{
		kind: 'number',
		name: 'maxFileSize',
		label: 'Max File Size (MB)',
		// OpenAI's limit for the files of one request; gateways pass on about as much.
		default: 32,
		min: 0.001,
		max: 1024,
		whole: false,
		fix: 'Use a size in megabytes, e.g. 32.',
		description: 'Files (PDFs, text files) larger than this are refused before anything is sent',
	},
	{
		kind: 'text',
		name: 'allowedFileTypes',
		label: 'Allowed File Types',
		default: 'application/pdf, text/plain',
		placeholder: 'e.g. application/pdf, text/*',
		description:
			'MIME types of the files that may be sent, separated by commas; text/* allows every text type. Other files are refused before anything is sent. The type is the one the binary data has, and a PDF is recognised by its bytes.',
	},
	{
		kind: 'number',
		name: 'tokenBudget',
		label: 'Token Budget',
		default: 0,
		min: 0,
		whole: true,
		fix: 'Use a whole number of tokens, e.g. 100000, or 0 for no budget.',
		description:
			"The most tokens (the service's total_tokens) one run of this node may spend over all its items; 0 is none. Every request is checked before it is sent, and only as many are in flight as the budget left pays for at the average reply so far; once the replies reach it, no further request is sent and the items not sent fail.",
		hint: '0 = none',
	},
	{
		kind: 'boolean',
		name: 'streamUsage',
		label: 'Stream Usage',
		default: true,
		description:
			'Whether to ask for token usage at the end of a stream (stream_options.include_usage). Turn off for services that reject it.',
	},
	{
		kind: 'number',
		name: 'concurrency',
		label: 'Concurrency',
		default: 0,
		min: 0,
		max: AUTO.max,
		whole: true,
		fix: 'Use 0 for Auto, or a whole number such as 4.',
		hint: '0 = Auto',
		description: `How many items are sent at the same time. 0 is Auto (the default): it starts with ${AUTO.start} (on a key this n8n has sent to before: where Auto left off on it), grows to ${AUTO.max} while answers come back fine and halves when the service says it is overloaded (429, 503). A number from 1 to ${AUTO.max} sends exactly that many. The output keeps the order of the input items.`,
	},
	{
		kind: 'number',
		name: 'timeout',
		label: 'Timeout (Ms)',
		default: 300_000,
		min: 1,
		whole: true,
		fix: MS_FIX,
		description:
			'How long to wait for the reply, in milliseconds (for a stream: the longest silence). There is no hidden upper limit. A request that times out is not sent again unless Retry Timeouts is on.',
	},
	{
		kind: 'number',
		name: 'maxRetries',
		label: 'Max Retries',
		default: 3,
		min: 0,
		whole: true,
		fix: 'Use a whole number such as 3, or 0 to never retry.',
		description:
			'How often a request is tried again after a server or gateway failure (500, 502, 503, 504) or a lost connection, waiting longer each time and as long as the service asks (Retry-After). Rate limits (429) are waited out instead (Max Wait on Rate Limit). Bad requests, keys, quota and missing models are never retried.',
	},
	{
		kind: 'number',
		name: 'maxRetryWait',
		label: 'Max Retry Wait (Ms)',
		default: 60_000,
		min: 0,
		whole: true,
		fix: MS_FIX,
		description: 'The most time all waits between the tries of one request may add up to',
	},
	{
		kind: 'number',
		name: 'maxRateLimitWait',
		label: 'Max Wait on Rate Limit (Ms)',
		default: 300_000,
		min: 0,
		whole: true,
		fix: 'Use a whole number of milliseconds, e.g. 300000, or 0 to fail on the first rate limit.',
		description:
			"How long one item may wait in all for the service's rate limit: when a 429 asks it to wait, and while a pause another item's 429 set on the key (or on its model) or the pacing holds it; an item a pause would hold longer fails at once. Waiting for a rate limit spends no retry. 0 fails on the first 429.",
	},
	{
		kind: 'boolean',
		name: 'retryTimeouts',
		label: 'Retry Timeouts',
		default: false,
		description:
			'Whether a request that timed out is sent again (up to Max Retries). Off by default: the service may still be writing, and billing, the answer that timed out, so each try can take the whole Timeout and cost the whole answer again.',
	},
] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['name'];

/**
 * Response Format and the options that belong to it. Later node versions show them as fields of their own
 * below the node's other fields (`responseFormatFields`), so that choosing JSON Schema shows its editor at
 * once; earlier versions keep them in Options, where each option is added by itself.
 */
const RESPONSE_FORMAT_OPTIONS: readonly string[] = [
	'responseFormat',
	'jsonSchema',
	'strictSchema',
	'repairAttempts',
] satisfies readonly OptionName[];

/** Whether the option is Response Format or one of its options. */
export function isResponseFormatOption(name: string): boolean {
	return RESPONSE_FORMAT_OPTIONS.includes(name);
}

const LABELS = new Map<string, string>(OPTIONS.map((spec) => [spec.name, spec.label]));

/** An option's label, from the table: `Timeout (Ms)`. */
export function optionLabel(name: OptionName): string {
	return LABELS.get(name) ?? name;
}

/**
 * How a message names an option: `Options > Timeout (Ms)`. Response Format's options by their label alone,
 * which is right whichever node version places them.
 */
export function optionPath(name: OptionName): string {
	return isResponseFormatOption(name) ? optionLabel(name) : `Options > ${optionLabel(name)}`;
}
export type NumberOptionName = Extract<(typeof OPTIONS)[number], { kind: 'number' }>['name'];
export type ChoiceOptionName = Extract<(typeof OPTIONS)[number], { kind: 'choice' }>['name'];
export type TextOptionName = Extract<(typeof OPTIONS)[number], { kind: 'text' }>['name'];
export type BooleanOptionName = Extract<(typeof OPTIONS)[number], { kind: 'boolean' }>['name'];
