/** Validation of a request's `tools` and `tool_choice`. */
import { rejectValue } from './errors.mts';
import { describe, isObject, type Json } from './json-value.mts';

export interface ToolDefinition {
	name: string;
	description?: string;
	/** A JSON-Schema object: `type` 'object', `properties`, `required`. */
	parameters?: Json;
}

/** `{ name }` forces a call of that function. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** A function's or a response format's name (the rule both follow): 1 to 64 letters, digits, `_` or `-`. */
export function parseName(value: unknown, param: string): string {
	if (typeof value === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(value)) return value;
	return rejectValue(
		`must be 1 to 64 letters, digits, underscores or dashes, got ${describe(value ?? null)}`,
		param,
	);
}

/** The tools of a request (absent or null: none). */
export function parseTools(value: unknown): ToolDefinition[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value))
		rejectValue(`must be an array of tools, got ${describe(value)}`, 'tools');
	const tools = value.map((tool: unknown, index: number) => parseTool(tool, `tools[${index}]`));
	tools.forEach((tool, index) => {
		if (tools.findIndex((other) => other.name === tool.name) !== index) {
			rejectValue(
				`the function name '${tool.name}' is used twice`,
				`tools[${index}].function.name`,
			);
		}
	});
	return tools;
}

function parseTool(tool: unknown, at: string): ToolDefinition {
	if (!isObject(tool)) rejectValue(`a tool must be an object, got ${describe(tool)}`, at);
	if (tool.type !== 'function') {
		rejectValue(`'type' must be 'function', got ${describe(tool.type ?? null)}`, `${at}.type`);
	}
	const fn = tool.function;
	if (!isObject(fn))
		rejectValue(`must be an object, got ${describe(fn ?? null)}`, `${at}.function`);
	const definition: ToolDefinition = { name: parseName(fn.name, `${at}.function.name`) };
	if (fn.description !== undefined) {
		if (typeof fn.description !== 'string') {
			rejectValue(
				`must be a string, got ${describe(fn.description)}`,
				`${at}.function.description`,
			);
		}
		definition.description = fn.description;
	}
	if (fn.parameters !== undefined) {
		definition.parameters = parseParameters(fn.parameters, `${at}.function.parameters`);
	}
	return definition;
}

function parseParameters(value: unknown, at: string): Json {
	if (!isObject(value)) rejectValue(`must be a JSON-Schema object, got ${describe(value)}`, at);
	if (value.type !== undefined && value.type !== 'object') {
		rejectValue(`'type' must be 'object', got ${describe(value.type)}`, `${at}.type`);
	}
	if (value.properties !== undefined && !isObject(value.properties)) {
		rejectValue(`must be an object, got ${describe(value.properties)}`, `${at}.properties`);
	}
	const required = value.required;
	if (
		required !== undefined &&
		!(Array.isArray(required) && required.every((name) => typeof name === 'string'))
	) {
		rejectValue(`must be an array of property names, got ${describe(required)}`, `${at}.required`);
	}
	return value;
}

/** The request's tool_choice (absent or null: 'auto'); 'required' and a named function need tools. */
export function parseToolChoice(value: unknown, tools: readonly ToolDefinition[]): ToolChoice {
	const choice = value ?? 'auto';
	if (choice === 'auto' || choice === 'none') return choice;
	if (choice === 'required') {
		if (tools.length === 0)
			rejectValue("'required' needs at least one tool in 'tools'", 'tool_choice');
		return choice;
	}
	if (!isObject(choice)) {
		rejectValue(
			`must be 'auto', 'none', 'required' or {"type": "function", "function": {"name": ...}}, got ${describe(choice)}`,
			'tool_choice',
		);
	}
	if (choice.type !== 'function') {
		rejectValue(
			`'type' must be 'function', got ${describe(choice.type ?? null)}`,
			'tool_choice.type',
		);
	}
	const name = isObject(choice.function) ? choice.function.name : undefined;
	if (typeof name !== 'string') {
		rejectValue(
			`must be a function name, got ${describe(name ?? null)}`,
			'tool_choice.function.name',
		);
	}
	if (!tools.some((tool) => tool.name === name)) {
		rejectValue(
			`names the function '${name}', which is not in 'tools'`,
			'tool_choice.function.name',
		);
	}
	return { name };
}
