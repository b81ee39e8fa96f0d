/**
 * Which function calls `tools-1` makes for a user text: the functions named in the text (or the first
 * tool), one call per subject (a capitalised word that does not start a sentence), arguments filled
 * in from each function's parameter schema.
 */
import { randomBytes } from 'node:crypto';
import type { ToolCall } from '../chat-messages.mts';
import { isObject, type Json } from '../json-value.mts';
import type { ToolChoice, ToolDefinition } from '../tools-request.mts';

/** Optional properties that still get the subject. */
const subjectProperties = new Set(['city', 'location', 'place', 'name', 'query']);

/** Whether `text` names the function, as written or with underscores read as spaces (any case). */
function mentions(text: string, name: string): boolean {
	const lower = text.toLowerCase();
	return [name, name.replaceAll('_', ' ')].some((form) =>
		new RegExp(`(^|[^a-z0-9_])${form.toLowerCase()}($|[^a-z0-9_])`).test(lower),
	);
}

/**
 * The capitalised words of `text` that start no sentence and are not a function name or a part of one
 * (nor the pronoun "I"), each once, in order.
 */
function subjectsOf(text: string, tools: readonly ToolDefinition[]): string[] {
	const excluded = new Set(
		['i', ...tools.flatMap((tool) => [tool.name, ...tool.name.split(/[_-]/)])].map((word) =>
			word.toLowerCase(),
		),
	);
	const subjects: string[] = [];
	for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu)) {
		const word = match[0];
		const before = text.slice(0, match.index);
		const startsSentence = /(^|[.!?\n])\s*$/.test(before);
		if (/^\p{Lu}/u.test(word) && !startsSentence && !excluded.has(word.toLowerCase())) {
			if (!subjects.includes(word)) subjects.push(word);
		}
	}
	return subjects;
}

/** A value of the property's schema type: the subject for strings, 1, true, [], {} or the first enum value. */
function valueFor(schema: unknown, subject: string): unknown {
	if (!isObject(schema)) return subject;
	if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
	const type = Array.isArray(schema.type)
		? schema.type.find((candidate) => candidate !== 'null')
		: schema.type;
	switch (type) {
		case 'number':
		case 'integer':
			return 1;
		case 'boolean':
			return true;
		case 'array':
			return [];
		case 'object':
			return {};
		default:
			return subject;
	}
}

/** Every required property, and the optional ones named like a subject, in schema order. */
function argumentsFor(parameters: Json | undefined, subject: string): Json {
	const properties = isObject(parameters?.properties) ? parameters.properties : {};
	const required = Array.isArray(parameters?.required) ? (parameters.required as string[]) : [];
	const names = [...Object.keys(properties), ...required.filter((name) => !(name in properties))];
	const args: Json = {};
	for (const name of names) {
		if (required.includes(name) || subjectProperties.has(name)) {
			args[name] = valueFor(properties[name], subject);
		}
	}
	return args;
}

/** The calls for the user's `text`: per chosen function (in the order of `tools`), one per subject. */
export function planToolCalls(
	text: string,
	tools: readonly ToolDefinition[],
	choice: ToolChoice,
): ToolCall[] {
	const mentioned = tools.filter((tool) => mentions(text, tool.name));
	const chosen =
		typeof choice === 'object'
			? tools.filter((tool) => tool.name === choice.name)
			: mentioned.length > 0
				? mentioned
				: tools.slice(0, 1);
	const subjects = subjectsOf(text, tools);
	return chosen.flatMap((tool) =>
		(subjects.length > 0 ? subjects : [text]).map(
			(subject): ToolCall => ({
				id: `call_${randomBytes(4).toString('hex')}`,
				type: 'function',
				function: {
					name: tool.name,
					arguments: JSON.stringify(argumentsFor(tool.parameters, subject)),
				},
			}),
		),
	);
}
