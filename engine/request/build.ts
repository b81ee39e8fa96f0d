/**
 * The request body around a node's finished messages and tools (`buildChatRequest`, here): the Model field
 * and its check (`model-id.ts`), the Options' wire fields, Extra Body, the response format, stream, Prompt
 * Caching's `cache_control` (`prompt-caching.ts`: at the top, or on the system message's last text part of
 * the body sent, never of the conversation a node outputs). Beside it in `request/`: Fallback Models as
 * typed (`fallback-models.ts`); protocol tools checked (`tools.ts`); the texts a sub-node sends, each
 * non-empty (`texts.ts`); a query the vector store did not pass, said as the chat nodes say an expression
 * that finds nothing, from the store's Prompt and input item (`missing-query.ts`).
 */
import type { ChatRequest, RequestParts } from './input';
import { buildResponseFormat } from './response-format';
import { fallbackModels } from './fallback-models';
import { checkModel } from './model-id';
import { promptCaching } from './prompt-caching';
import { retryPolicy } from './retry-policy';
import { InputError } from '../failures/errors';
import {
	optionChoice,
	optionFlag,
	optionSetting,
	placedOptionPath,
	wireFields,
} from '../options/read';
import { OPTIONS, optionPath } from '../options/table';
import type { ChatRequestBody } from '../protocol';
import { describe, isPlainObject, parseJsonField } from '../values';

/**
 * Fields the node itself always decides, and the field that decides each: Extra Body may not set them.
 * (`stream` is decided by Options > Stream or by whether the workflow streams its response.)
 */
const RESERVED_FIELDS: Record<string, string> = {
	model: 'the Model field sets',
	messages: 'the node builds from its prompt or messages',
	stream: `${optionPath('stream')} sets`,
	stream_options: `${optionPath('streamUsage')} sets`,
	tools: 'the node builds from its tools',
	tool_choice: 'the node builds from its tools',
};

/**
 * Extra Body as an object. It may not set what the node decides itself, nor a field that one of the
 * node's fields sets too (`setBy`: wire field -> which of the node's fields sets it): the message names both.
 * Empty is nothing.
 */
export function checkExtraBody(
	value: unknown,
	setBy: Record<string, string>,
): Record<string, unknown> {
	const fix = 'Give a JSON object such as {"seed": 7}.';
	const parsed = parseJsonField(value, 'Extra Body', fix);
	if (parsed === undefined || parsed === null) return {};
	if (!isPlainObject(parsed)) {
		throw new InputError('Extra Body', `must be a JSON object, got ${describe(parsed)}`, fix);
	}
	const taken = Object.keys(parsed).filter((field) => field in setBy);
	if (taken.length > 0) {
		const clashes = taken.map((field) => `"${field}", which ${setBy[field]}`);
		throw new InputError(
			'Extra Body',
			`sets ${clashes.join(', and ')}`,
			`Remove ${taken.map((field) => `"${field}"`).join(', ')} from Extra Body: the node's own field decides ${taken.length === 1 ? 'it' : 'them'}.`,
		);
	}
	return parsed;
}

/** The labels of the options whose wire fields are set, by wire field: `temperature` -> `Options > Temperature`. */
export function setByOptions(fields: Record<string, unknown>): Record<string, string> {
	const labels: Record<string, string> = {};
	for (const spec of OPTIONS) {
		if ('wire' in spec && spec.wire in fields) labels[spec.wire] = `${optionPath(spec.name)} sets`;
	}
	return labels;
}

/**
 * Checks the model and the Options and builds the request body around the node's finished messages and
 * tools; unset options are left out.
 */
export function buildChatRequest(parts: RequestParts): ChatRequest {
	const { options, tools, toolChoice } = parts;
	const model = checkModel(parts.model);
	const format = buildResponseFormat(options);
	const fields = wireFields(options);
	const setBy = { ...RESERVED_FIELDS, ...setByOptions(fields) };
	if (format.structured)
		setBy.response_format = `${placedOptionPath(options, 'responseFormat')} sets`;
	const modalities =
		options.outputModalities === undefined
			? undefined
			: optionChoice(options, 'outputModalities').split(',');
	if (modalities !== undefined) setBy.modalities = `${optionPath('outputModalities')} sets`;
	const caching = promptCaching(options, parts.messages);
	if (caching.cacheControl !== undefined)
		setBy.cache_control = `${optionPath('promptCaching')} sets`;
	const body: ChatRequestBody = {
		...checkExtraBody(options.extraBody, setBy),
		model,
		messages: caching.messages,
		...(tools === undefined ? {} : { tools }),
		...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
		...fields,
		...(modalities === undefined ? {} : { modalities }),
		...(caching.cacheControl === undefined ? {} : { cache_control: caching.cacheControl }),
		...format.body,
	};
	// Not added, Stream follows the workflow: streamed when n8n streams the workflow's response.
	const stream = optionFlag(options, 'stream') ?? parts.streaming === true;
	if (stream) {
		body.stream = true;
		if (optionFlag(options, 'streamUsage') !== false) body.stream_options = { include_usage: true };
	}
	return {
		body,
		timeout: optionSetting(options, 'timeout'),
		stream,
		retry: retryPolicy(options),
		structured: format.structured,
		fallbackModels: fallbackModels(options.fallbackModels, model),
	};
}
