import type { ChatInput, ChatRequest } from './input';
import { buildMessages } from './messages';
import { buildResponseFormat } from './response-format';
import { buildTools } from './tools';
import { InputError } from '../failures';
import { optionSetting, wireFields } from '../options/read';
import type { ChatRequestBody } from '../protocol';
import { describe, isPlainObject, parseJsonField } from '../values';

/** Fields the node's own parameters set; Extra Body may not replace them. */
const RESERVED_FIELDS = ['model', 'messages', 'stream', 'stream_options', 'tools', 'tool_choice'];

function checkModel(value: unknown): string {
	const model = typeof value === 'string' ? value.trim() : '';
	if (model === '') {
		throw new InputError(
			'Model',
			value === '' || value === undefined || value === null
				? 'is empty'
				: `must be text, got ${describe(value)}`,
			'Choose a model from the list, or switch to "ID" and type the model ID.',
		);
	}
	if (/\s/.test(model)) {
		throw new InputError(
			'Model',
			`"${model}" contains spaces`,
			'Model IDs have no spaces: check the ID in the list.',
		);
	}
	return model;
}

function checkExtraBody(value: unknown, reserved: string[]): Record<string, unknown> {
	const fix = 'Give a JSON object such as {"seed": 7}.';
	const parsed = parseJsonField(value, 'Extra Body', fix);
	if (parsed === undefined || parsed === null) return {};
	if (!isPlainObject(parsed)) {
		throw new InputError('Extra Body', `must be a JSON object, got ${describe(parsed)}`, fix);
	}
	const taken = reserved.filter((field) => field in parsed);
	if (taken.length > 0) {
		throw new InputError(
			'Extra Body',
			`may not set ${taken.map((field) => `"${field}"`).join(', ')}`,
			"Set the model, messages and tools with the node's own fields, and remove them from Extra Body.",
		);
	}
	return parsed;
}

/** Checks one item's parameters and builds the request body; unset options are left out. */
export function buildChatRequest(input: ChatInput): ChatRequest {
	const { options } = input;
	const model = checkModel(input.model);
	const maxImageMb = optionSetting(options, 'maxImageSize');
	const messages = buildMessages(input, maxImageMb * 1024 * 1024);
	const format = buildResponseFormat(options);
	const reserved = format.structured ? [...RESERVED_FIELDS, 'response_format'] : RESERVED_FIELDS;
	const body: ChatRequestBody = {
		...checkExtraBody(options.extraBody, reserved),
		model,
		messages,
		...buildTools(input),
		...wireFields(options),
		...format.body,
	};
	const stream = options.stream === true;
	if (stream) {
		body.stream = true;
		if (options.streamUsage !== false) body.stream_options = { include_usage: true };
	}
	return {
		body,
		timeout: optionSetting(options, 'timeout'),
		stream,
		retry: {
			maxRetries: optionSetting(options, 'maxRetries'),
			maxWaitMs: optionSetting(options, 'maxRetryWait'),
			maxRateLimitWaitMs: optionSetting(options, 'maxRateLimitWait'),
		},
		structured: format.structured,
	};
}
