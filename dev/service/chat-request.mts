/** Validation of a chat completion request body (SERVICE.md 2.1, 2.2) into a ChatRequest. */
import { invalidRequest } from './errors.mts';

const roles = ['system', 'user', 'assistant', 'tool', 'developer'] as const;
export type Role = (typeof roles)[number];

export interface ContentPart {
	type: string;
	text?: string;
}

export interface ChatMessage {
	role: Role;
	/** null when an assistant message carries only tool_calls. */
	content: string | ContentPart[] | null;
}

export interface ChatRequest {
	model: string;
	messages: ChatMessage[];
	stream: boolean;
	includeUsage: boolean;
	maxTokens?: number;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a rejected value for error messages. */
function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	const text =
		typeof value === 'string' ? `'${value}'` : `${typeof value} ${JSON.stringify(value)}`;
	return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
	let body: unknown;
	try {
		body = JSON.parse(rawBody);
	} catch (error) {
		throw invalidRequest(
			`We could not parse the JSON body of your request: ${(error as Error).message}`,
			null,
		);
	}
	if (!isObject(body)) {
		throw invalidRequest(`The request body must be a JSON object, got ${describe(body)}`, null);
	}

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
	};
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

function parseMessage(message: unknown, index: number): ChatMessage {
	const at = `messages[${index}]`;
	if (!isObject(message)) {
		throw invalidRequest(
			`${at}: a message must be an object, got ${describe(message)}`,
			at,
			'invalid_type',
		);
	}
	if (message.role === undefined) {
		throw invalidRequest(`${at}: 'role' is required`, `${at}.role`, 'missing_required_parameter');
	}
	const role = roles.find((known) => known === message.role);
	if (role === undefined) {
		throw invalidRequest(
			`${at}: 'role' must be one of ${roles.join(', ')}, got ${describe(message.role)}`,
			`${at}.role`,
			'invalid_value',
		);
	}
	const content = message.content ?? null;
	if (content === null) {
		const hasToolCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
		if (role === 'assistant' && hasToolCalls) return { role, content: null };
		throw invalidRequest(
			`${at}: 'content' is required (it may be null only for an assistant message with tool_calls)`,
			`${at}.content`,
			'missing_required_parameter',
		);
	}
	if (typeof content === 'string') return { role, content };
	if (!Array.isArray(content)) {
		throw invalidRequest(
			`${at}: 'content' must be a string or an array of content parts, got ${describe(content)}`,
			`${at}.content`,
			'invalid_type',
		);
	}
	return {
		role,
		content: content.map((part: unknown, partIndex: number) =>
			parsePart(part, `${at}.content[${partIndex}]`),
		),
	};
}

function parsePart(part: unknown, at: string): ContentPart {
	if (!isObject(part) || typeof part.type !== 'string') {
		throw invalidRequest(
			`${at}: a content part must be an object with a string 'type'`,
			at,
			'invalid_type',
		);
	}
	if (part.type === 'text') {
		if (typeof part.text !== 'string') {
			throw invalidRequest(
				`${at}: a text part needs a string 'text'`,
				`${at}.text`,
				'invalid_type',
			);
		}
		return { type: 'text', text: part.text };
	}
	if (
		part.type === 'image_url' &&
		!(isObject(part.image_url) && typeof part.image_url.url === 'string')
	) {
		throw invalidRequest(
			`${at}: an image_url part needs 'image_url.url' (a URL or a data URI)`,
			`${at}.image_url`,
			'invalid_type',
		);
	}
	return { type: part.type };
}
