import { DEFAULT_MAX_IMAGE_MB } from './images';
import { InputError } from './input-error';
import { buildMessages } from './messages';
import { buildTools } from './tools';
import type { ChatInput, ChatRequest, ChatRequestBody } from './types';
import { describe, isPlainObject, numberInRange, parseJsonField, wholeNumber } from './values';
import { DEFAULT_RETRY_POLICY } from '../transport/retry-policy';

export const DEFAULT_TIMEOUT_MS = 300_000;

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

function checkExtraBody(value: unknown): Record<string, unknown> {
	const fix = 'Give a JSON object such as {"seed": 7}.';
	const parsed = parseJsonField(value, 'Extra Body', fix);
	if (parsed === undefined || parsed === null) return {};
	if (!isPlainObject(parsed)) {
		throw new InputError('Extra Body', `must be a JSON object, got ${describe(parsed)}`, fix);
	}
	const reserved = RESERVED_FIELDS.filter((field) => field in parsed);
	if (reserved.length > 0) {
		throw new InputError(
			'Extra Body',
			`may not set ${reserved.map((field) => `"${field}"`).join(', ')}`,
			"Set the model, messages and tools with the node's own fields, and remove them from Extra Body.",
		);
	}
	return parsed;
}

function optional(
	value: unknown,
	fallback: number,
	field: string,
	min: number,
	fix: string,
): number {
	return value === undefined ? fallback : wholeNumber(value, field, min, fix);
}

/** Checks one item's parameters and builds the request body; unset options are left out. */
export function buildChatRequest(input: ChatInput): ChatRequest {
	const { options } = input;
	const model = checkModel(input.model);
	const maxImageMb =
		options.maxImageSize === undefined
			? DEFAULT_MAX_IMAGE_MB
			: numberInRange(
					options.maxImageSize,
					'Max Image Size (MB)',
					0.001,
					1024,
					'Use a size in megabytes, e.g. 20.',
				);
	const messages = buildMessages(input, maxImageMb * 1024 * 1024);
	const body: ChatRequestBody = {
		...checkExtraBody(options.extraBody),
		model,
		messages,
		...buildTools(input),
	};
	if (options.temperature !== undefined) {
		body.temperature = numberInRange(
			options.temperature,
			'Temperature',
			0,
			2,
			'Use a value from 0 to 2, e.g. 0.7.',
		);
	}
	if (options.topP !== undefined) {
		body.top_p = numberInRange(options.topP, 'Top P', 0, 1, 'Use a value from 0 to 1, e.g. 0.9.');
	}
	if (options.maxTokens !== undefined) {
		body.max_tokens = wholeNumber(
			options.maxTokens,
			'Maximum Tokens',
			1,
			'Use a whole number such as 1024.',
		);
	}
	const stream = options.stream === true;
	if (stream) {
		body.stream = true;
		if (options.streamUsage !== false) body.stream_options = { include_usage: true };
	}
	return {
		body,
		timeout: optional(
			options.timeout,
			DEFAULT_TIMEOUT_MS,
			'Timeout (Ms)',
			1,
			'Use a whole number of milliseconds, e.g. 60000.',
		),
		stream,
		retry: {
			maxRetries: optional(
				options.maxRetries,
				DEFAULT_RETRY_POLICY.maxRetries,
				'Max Retries',
				0,
				'Use a whole number such as 3, or 0 to never retry.',
			),
			maxWaitMs: optional(
				options.maxRetryWait,
				DEFAULT_RETRY_POLICY.maxWaitMs,
				'Max Retry Wait (Ms)',
				0,
				'Use a whole number of milliseconds, e.g. 60000.',
			),
		},
	};
}
