/**
 * Validation of a request's `response_format` (the official shapes: `{type: "text"}`, `{type: "json_object"}`,
 * `{type: "json_schema", json_schema: {name, schema?, strict?, description?}}`), and OpenAI's and DeepSeek's
 * rule that `json_object` needs the word "json" somewhere in the messages.
 */
import type { ChatMessage } from './chat-messages.mts';
import { invalidRequest, rejectValue } from './errors.mts';
import { describe, isObject, type Json } from './json-value.mts';
import { messageText } from './message-text.mts';
import { parseName } from './tools-request.mts';

export type ResponseFormat =
	| { type: 'text' }
	| { type: 'json_object' }
	| { type: 'json_schema'; schema: Json };

/** The request's response_format (absent or null: text); throws a 400 naming the field at fault. */
export function parseResponseFormat(
	value: unknown,
	messages: readonly ChatMessage[],
): ResponseFormat {
	const format = value ?? { type: 'text' };
	if (!isObject(format))
		rejectValue(`must be an object, got ${describe(format)}`, 'response_format');
	switch (format.type) {
		case 'text':
			return { type: 'text' };
		case 'json_object':
			checkJsonWord(messages);
			return { type: 'json_object' };
		case 'json_schema':
			return { type: 'json_schema', ...parseJsonSchema(format.json_schema) };
		default:
			return rejectValue(
				`'type' must be 'text', 'json_object' or 'json_schema', got ${describe(format.type ?? null)}`,
				'response_format.type',
			);
	}
}

/** `json_schema`'s schema (absent: `{}`, which any JSON value satisfies), once its other fields are checked. */
function parseJsonSchema(value: unknown): { schema: Json } {
	const at = 'response_format.json_schema';
	if (!isObject(value)) rejectValue(`must be an object, got ${describe(value ?? null)}`, at);
	parseName(value.name, `${at}.name`);
	const { schema, strict, description } = value;
	if (schema !== undefined && !isObject(schema)) {
		rejectValue(`must be a JSON-Schema object, got ${describe(schema)}`, `${at}.schema`);
	}
	if (strict !== undefined && strict !== null && typeof strict !== 'boolean') {
		rejectValue(`must be a boolean, got ${describe(strict)}`, `${at}.strict`);
	}
	if (description !== undefined && typeof description !== 'string') {
		rejectValue(`must be a string, got ${describe(description)}`, `${at}.description`);
	}
	return { schema: schema ?? {} };
}

/** Whether any message's text has the word "json", in any case or inside another word, as OpenAI checks it. */
export function mentionsJson(messages: readonly ChatMessage[]): boolean {
	return messages.some((message) => /json/i.test(messageText(message)));
}

function checkJsonWord(messages: readonly ChatMessage[]): void {
	if (mentionsJson(messages)) return;
	throw invalidRequest(
		"'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
		'messages',
	);
}
