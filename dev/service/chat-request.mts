/** Validation of a chat completion request body into a ChatRequest. */
import { optionalChoice } from './body-fields.mts';
import { parseCacheControl, type Ttl } from './cache-control.mts';
import { parseMessage, type ChatMessage } from './chat-messages.mts';
import { invalidRequest } from './errors.mts';
import { parseJsonBody } from './json-body.mts';
import { describe, isObject, type Json } from './json-value.mts';
import { checkStreamKnobs, parseKnobs, type Knobs } from './knobs.mts';
import { parseResponseFormat, type ResponseFormat } from './response-format.mts';
import { checkToolSequence } from './tool-sequence.mts';
import {
	parseToolChoice,
	parseTools,
	type ToolChoice,
	type ToolDefinition,
} from './tools-request.mts';

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	stream: boolean;
	includeUsage: boolean;
	maxTokens?: number;
	tools: ToolDefinition[];
	toolChoice: ToolChoice;
	responseFormat: ResponseFormat;
	/** The output modalities asked for (`modalities`, e.g. ["image", "text"]); empty when not sent. */
	modalities: Modality[];
	/** A top-level `cache_control`: automatic prompt caching kept this long (prompt-cache.mts). */
	automaticCache?: Ttl;
	/** From `x_local`, which is not part of the request proper. */
	knobs: Knobs;
}

/** Parses and validates the body of POST /chat/completions; throws a 400 ApiError naming the field at fault. */
export function parseChatRequest(contentType: string | undefined, rawBody: string): ChatRequest {
	const mediaType = contentType?.split(';')[0].trim().toLowerCase();
	if (mediaType !== 'application/json') {
		throw invalidRequest(
			`Content-Type must be application/json, got ${contentType === undefined ? 'none' : `'${contentType}'`}`,
			null,
		);
	}
	const parsed = parseJsonBody(rawBody);
	const { x_local: rawKnobs, ...body } = parsed;
	const knobs = parseKnobs(rawKnobs);

	if (body.model === undefined || body.model === null) {
		throw invalidRequest("'model' is required", 'model', 'missing_required_parameter');
	}
	if (typeof body.model !== 'string') {
		throw invalidRequest(
			`'model' must be a string, got ${describe(body.model)}`,
			'model',
			'invalid_type',
		);
	}
	if (body.messages === undefined) {
		throw invalidRequest("'messages' is required", 'messages', 'missing_required_parameter');
	}
	if (!Array.isArray(body.messages)) {
		throw invalidRequest(
			`'messages' must be an array, got ${describe(body.messages)}`,
			'messages',
			'invalid_type',
		);
	}
	if (body.messages.length === 0) {
		throw invalidRequest("'messages' must not be empty", 'messages', 'empty_array');
	}
	const messages = body.messages.map((message: unknown, index: number) =>
		parseMessage(message, index),
	);
	checkToolSequence(messages);
	const tools = parseTools(body.tools);

	optionalChoice(body.reasoning_effort, 'reasoning_effort', reasoningEfforts);
	checkRange(body, 'temperature', 0, 2);
	checkRange(body, 'top_p', 0, 1);
	const maxTokens = body.max_tokens ?? undefined;
	if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && (maxTokens as number) > 0)) {
		throw invalidRequest(
			`'max_tokens' must be a positive integer, got ${describe(maxTokens)}`,
			'max_tokens',
			'invalid_value',
		);
	}
	const stream = body.stream ?? false;
	if (typeof stream !== 'boolean') {
		throw invalidRequest(
			`'stream' must be a boolean, got ${describe(stream)}`,
			'stream',
			'invalid_type',
		);
	}
	if (stream && !knobs.ignoreStream) checkStreamKnobs(knobs);
	const streamOptions = body.stream_options ?? {};
	if (!isObject(streamOptions)) {
		throw invalidRequest(
			`'stream_options' must be an object, got ${describe(streamOptions)}`,
			'stream_options',
			'invalid_type',
		);
	}
	return {
		model: body.model,
		messages,
		stream,
		includeUsage: streamOptions.include_usage === true,
		...(maxTokens === undefined ? {} : { maxTokens: maxTokens as number }),
		tools,
		toolChoice: parseToolChoice(body.tool_choice, tools),
		responseFormat: parseResponseFormat(body.response_format, messages),
		modalities: parseModalities(body.modalities),
		...(body.cache_control === undefined
			? {}
			: { automaticCache: parseCacheControl(body.cache_control, 'cache_control') }),
		knobs,
	};
}

const modalities = ['text', 'image', 'audio'] as const;
type Modality = (typeof modalities)[number];

/** `modalities`: an array of "text", "image" (OpenRouter's and Vercel's image output), "audio"; null is absent. */
function parseModalities(value: unknown): Modality[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) {
		throw invalidRequest(
			`'modalities' must be an array, got ${describe(value)}`,
			'modalities',
			'invalid_type',
		);
	}
	return value.map(
		(entry, index) => optionalChoice(entry ?? '', `modalities[${index}]`, modalities) as Modality,
	);
}

/** Null counts as absent, as with the common protocol. */
function checkRange(body: Json, field: string, min: number, max: number): void {
	const value = body[field] ?? undefined;
	if (value === undefined) return;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
		throw invalidRequest(
			`'${field}' must be a number from ${min} to ${max}, got ${describe(value)}`,
			field,
			'invalid_value',
		);
	}
}

/** The values the official schema allows for `reasoning_effort` (null: not set). */
const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
