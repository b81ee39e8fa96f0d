/**
 * A JSON schema written into the messages as text, as clients and LiteLLM do when the vendor refuses
 * `json_schema` ("Answer with JSON that follows this schema: {...}"): json-1 then follows it.
 */
import type { ChatMessage } from './chat-messages.mts';
import { isObject, type Json } from './json-value.mts';
import { messageText } from './message-text.mts';

/** Where the balanced `{...}` that opens at `start` ends (exclusive), skipping braces inside strings. */
function objectEnd(text: string, start: number): number | undefined {
	let depth = 0;
	let inString = false;
	for (let index = start; index < text.length; index += 1) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index += 1;
			else if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === '{' || char === '}') {
			depth += char === '{' ? 1 : -1;
			if (depth === 0) return index + 1;
		}
	}
	return undefined;
}

function parseObject(text: string): Json | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The outermost JSON objects written in `text`, in order. */
function objectsIn(text: string): Json[] {
	const objects: Json[] = [];
	for (let start = text.indexOf('{'); start >= 0; ) {
		const end = objectEnd(text, start);
		const object = end === undefined ? undefined : parseObject(text.slice(start, end));
		if (object !== undefined) objects.push(object);
		start = text.indexOf('{', object === undefined ? start + 1 : end);
	}
	return objects;
}

/** The last object schema (`type: "object"` or `properties`) written in a system, developer or user message. */
export function schemaInMessages(messages: readonly ChatMessage[]): Json | undefined {
	return messages
		.filter((message) => ['system', 'developer', 'user'].includes(message.role))
		.flatMap((message) => objectsIn(messageText(message)))
		.filter((object) => object.type === 'object' || isObject(object.properties))
		.at(-1);
}
