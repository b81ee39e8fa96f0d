/** Validation of one message of a chat completion request, its content parts and tool calls. */
import { parseCacheControl } from './cache-control.mts';
import { invalidRequest } from './errors.mts';
import { parseFilePart, type FileRef } from './files/file-part.mts';
import { describe, isObject } from './json-value.mts';

const roles = ['system', 'user', 'assistant', 'tool', 'developer'] as const;
export type Role = (typeof roles)[number];

const imageDetails = ['auto', 'low', 'high'] as const;
export type ImageDetail = (typeof imageDetails)[number];

export interface ImageRef {
	/** A URL or a data URI, not checked further here. */
	url: string;
	detail?: ImageDetail;
}

export interface ContentPart {
	type: string;
	text?: string;
	/** Set for `image_url` parts. */
	image?: ImageRef;
	/** Set for `file` parts. */
	file?: FileRef;
	/** A text part's `cache_control`: a prompt cache breakpoint kept this long (prompt-cache.mts). */
	cacheTtl?: '5m' | '1h';
}

/** A tool call in protocol form, as assistant messages and replies carry it. */
export interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

export interface ChatMessage {
	role: Role;
	/** null when an assistant message carries only tool_calls. */
	content: string | ContentPart[] | null;
	/** An assistant message's calls (absent when it has none). */
	toolCalls?: ToolCall[];
	/** A tool message's answer to this call id. */
	toolCallId?: string;
	/** The reasoning fields an assistant message carries as text (`reasoning_content`, `reasoning`). */
	reasoningFields?: string[];
	/** The TTL of the message's last prompt cache breakpoint, when a part has one. */
	cacheTtl?: '5m' | '1h';
}

const reasoningFieldNames = ['reasoning_content', 'reasoning'];

/** The reasoning fields of an assistant message; each must be text (or null: absent). */
function parseReasoningFields(message: Record<string, unknown>, at: string): string[] {
	return reasoningFieldNames.filter((field) => {
		const value = message[field];
		if (value === undefined || value === null) return false;
		if (typeof value === 'string') return true;
		throw invalidRequest(
			`${at}: '${field}' must be a string, got ${describe(value)}`,
			`${at}.${field}`,
			'invalid_type',
		);
	});
}

export function parseMessage(message: unknown, index: number): ChatMessage {
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
	const toolCalls = role === 'assistant' ? parseToolCalls(message.tool_calls, at) : [];
	const reasoningFields = role === 'assistant' ? parseReasoningFields(message, at) : [];
	const extra = {
		...(toolCalls.length > 0 ? { toolCalls } : {}),
		...(reasoningFields.length > 0 ? { reasoningFields } : {}),
		...(role === 'tool' ? { toolCallId: parseToolCallId(message.tool_call_id, at) } : {}),
	};
	const content = message.content ?? null;
	if (content === null) {
		if (toolCalls.length > 0) return { role, content: null, ...extra };
		throw invalidRequest(
			`${at}: 'content' is required (it may be null only for an assistant message with tool_calls)`,
			`${at}.content`,
			'missing_required_parameter',
		);
	}
	if (typeof content === 'string') return { role, content, ...extra };
	if (!Array.isArray(content)) {
		throw invalidRequest(
			`${at}: 'content' must be a string or an array of content parts, got ${describe(content)}`,
			`${at}.content`,
			'invalid_type',
		);
	}
	const parts = content.map((part: unknown, partIndex: number) =>
		parsePart(part, `${at}.content[${partIndex}]`),
	);
	const cacheTtl = parts.filter((part) => part.cacheTtl !== undefined).at(-1)?.cacheTtl;
	return { role, content: parts, ...extra, ...(cacheTtl === undefined ? {} : { cacheTtl }) };
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
		if (part.cache_control === undefined) return { type: 'text', text: part.text };
		const cacheTtl = parseCacheControl(part.cache_control, `${at}.cache_control`);
		return { type: 'text', text: part.text, cacheTtl };
	}
	if (part.type === 'file') return { type: 'file', file: parseFilePart(part, at) };
	if (part.type !== 'image_url') return { type: part.type };
	const image = part.image_url;
	if (!(isObject(image) && typeof image.url === 'string')) {
		throw invalidRequest(
			`${at}: an image_url part needs 'image_url.url' (a URL or a data URI)`,
			`${at}.image_url`,
			'invalid_type',
		);
	}
	if (image.detail === undefined) return { type: 'image_url', image: { url: image.url } };
	const detail = imageDetails.find((known) => known === image.detail);
	if (detail === undefined) {
		throw invalidRequest(
			`${at}: 'image_url.detail' must be one of ${imageDetails.join(', ')}, got ${describe(image.detail)}`,
			`${at}.image_url.detail`,
			'invalid_value',
		);
	}
	return { type: 'image_url', image: { url: image.url, detail } };
}

function parseToolCallId(value: unknown, at: string): string {
	if (typeof value === 'string' && value !== '') return value;
	throw invalidRequest(
		`${at}: a tool message needs 'tool_call_id' (the id of the call it answers), got ${describe(value ?? null)}`,
		`${at}.tool_call_id`,
		value === undefined ? 'missing_required_parameter' : 'invalid_type',
	);
}

/** An assistant message's `tool_calls` (absent or null: none). */
function parseToolCalls(value: unknown, at: string): ToolCall[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) {
		throw invalidRequest(
			`${at}: 'tool_calls' must be an array, got ${describe(value)}`,
			`${at}.tool_calls`,
			'invalid_type',
		);
	}
	return value.map((call: unknown, index: number) =>
		parseToolCall(call, `${at}.tool_calls[${index}]`),
	);
}

function parseToolCall(call: unknown, at: string): ToolCall {
	const reject = (field: string, rule: string, value: unknown): never => {
		throw invalidRequest(
			`${at}: ${rule}, got ${describe(value ?? null)}`,
			field === '' ? at : `${at}.${field}`,
			'invalid_value',
		);
	};
	if (!isObject(call)) return reject('', 'a tool call must be an object', call);
	if (typeof call.id !== 'string' || call.id === '') {
		return reject('id', "'id' must be a non-empty string", call.id);
	}
	if (call.type !== 'function') return reject('type', "'type' must be 'function'", call.type);
	const fn = call.function;
	if (!isObject(fn)) return reject('function', "'function' must be an object", fn);
	if (typeof fn.name !== 'string' || fn.name === '') {
		return reject('function.name', "'function.name' must be a non-empty string", fn.name);
	}
	if (typeof fn.arguments !== 'string') {
		return reject(
			'function.arguments',
			'function.arguments must be a JSON string (the arguments object encoded with JSON.stringify)',
			fn.arguments,
		);
	}
	return { id: call.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } };
}
