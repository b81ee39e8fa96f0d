import type { ChatInput } from './input';
import { InputError } from '../failures';
import { checkSchema, describeViolations } from '../json-schema';
import type { ChatRequestBody, ToolDefinition } from '../protocol';
import { describe, isPlainObject, named, parseJsonField } from '../values';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const SCHEMA_FIX =
	'Give a JSON schema object such as {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}, "required": ["city"]}.';

/**
 * A tool's parameters: a JSON Schema checked as a whole (a misspelled `type` anywhere, `required` names
 * `properties` lacks, bad patterns, ...) whose top is an object, since the arguments are an object.
 */
function checkParameters(value: unknown, field: string): Record<string, unknown> {
	const schema = parseJsonField(value, field, SCHEMA_FIX) ?? { type: 'object', properties: {} };
	if (!isPlainObject(schema)) {
		throw new InputError(field, `must be a JSON schema object, got ${describe(schema)}`, SCHEMA_FIX);
	}
	const problems = checkSchema(schema);
	if (problems.length > 0) {
		throw new InputError(field, `is not a valid schema: ${describeViolations(problems)}`, SCHEMA_FIX);
	}
	if (schema.type !== 'object') {
		throw new InputError(
			field,
			schema.type === undefined
				? 'has no "type": the arguments are an object, so the schema needs "type": "object" at the top'
				: `has "type": ${JSON.stringify(schema.type)} at the top, but the arguments are an object`,
			SCHEMA_FIX,
		);
	}
	const missing = (Array.isArray(schema.required) ? schema.required : []).filter(
		(name) => !isPlainObject(schema.properties) || !(name in schema.properties),
	);
	if (missing.length > 0) {
		throw new InputError(
			field,
			`"required" names ${missing.map((name) => `"${String(name)}"`).join(', ')}, which "properties" does not define`,
			'Add those properties, or remove them from "required".',
		);
	}
	return schema;
}

function checkName(value: unknown, field: string): string {
	if (value === undefined || value === '') {
		throw new InputError(field, 'is empty', 'Give the function a name, e.g. get_weather.');
	}
	if (typeof value !== 'string' || !NAME.test(value)) {
		throw new InputError(
			field,
			`${named(value)} is not a valid function name`,
			'Use 1 to 64 letters, digits, underscores or hyphens, e.g. get_weather.',
		);
	}
	return value;
}

function fromRows(rows: unknown): ToolDefinition[] {
	const values = isPlainObject(rows) && Array.isArray(rows.values) ? rows.values : [];
	return values.map((row: unknown, index) => {
		const place = `Tools row ${index + 1}`;
		const fields = isPlainObject(row) ? row : {};
		const name = checkName(fields.name, `${place} > Name`);
		const definition: ToolDefinition = {
			type: 'function',
			function: { name, parameters: checkParameters(fields.parameters, `${place} > Parameters`) },
		};
		if (typeof fields.description === 'string' && fields.description.trim() !== '') {
			definition.function.description = fields.description;
		}
		return definition;
	});
}

function fromJson(value: unknown): ToolDefinition[] {
	const field = 'Tools (JSON)';
	const fix =
		'Give a protocol tools array: [{"type": "function", "function": {"name": "get_weather", "parameters": {...}}}].';
	const tools = parseJsonField(value, field, fix);
	if (!Array.isArray(tools))
		throw new InputError(field, `must be an array of tools, got ${describe(tools)}`, fix);
	return tools.map((tool, index) => {
		const place = `${field}: tools[${index}]`;
		if (!isPlainObject(tool) || tool.type !== 'function' || !isPlainObject(tool.function)) {
			throw new InputError(place, 'must be {"type": "function", "function": {...}}', fix);
		}
		const name = checkName(tool.function.name, `${place}.function.name`);
		return {
			...tool,
			type: 'function',
			function: {
				...tool.function,
				name,
				parameters: checkParameters(tool.function.parameters, `${place}.function.parameters`),
			},
		} as ToolDefinition;
	});
}

function toolChoice(input: ChatInput, names: string[]): ChatRequestBody['tool_choice'] {
	const choice = input.toolChoice ?? 'auto';
	if (choice === 'auto') return undefined;
	if (choice === 'none' || choice === 'required') return choice;
	if (choice === 'function') {
		const name =
			typeof input.toolChoiceFunction === 'string' ? input.toolChoiceFunction.trim() : '';
		if (!names.includes(name)) {
			throw new InputError(
				'Function Name or ID',
				`"${name}" is not one of the defined tools (${names.join(', ')})`,
				'Choose one of the tools defined above.',
			);
		}
		return { type: 'function', function: { name } };
	}
	throw new InputError(
		'Tool Choice',
		`has the unknown value ${named(choice)}`,
		'Choose Auto, None, Required or Function.',
	);
}

/** The `tools` and `tool_choice` fields for one item; nothing when tools are off. Tool Choice Auto is not sent. */
export function buildTools(input: ChatInput): Pick<ChatRequestBody, 'tools' | 'tool_choice'> {
	const mode = input.toolsMode ?? 'none';
	if (mode === 'none') return {};
	if (mode !== 'define' && mode !== 'json') {
		throw new InputError(
			'Tools',
			`has the unknown mode ${named(mode)}`,
			'Choose None, Define Below or JSON.',
		);
	}
	const tools = mode === 'define' ? fromRows(input.tools) : fromJson(input.toolsJson);
	if (tools.length === 0) {
		throw new InputError('Tools', 'defines no tool', 'Add a tool, or set Tools to None.');
	}
	const names = tools.map((tool) => tool.function.name);
	const duplicate = names.find((name, index) => names.indexOf(name) !== index);
	if (duplicate !== undefined) {
		throw new InputError('Tools', `defines "${duplicate}" twice`, 'Give every tool its own name.');
	}
	const choice = toolChoice(input, names);
	return choice === undefined ? { tools } : { tools, tool_choice: choice };
}
