import { InputError } from '../failures/errors';
import { checkSchema, describeViolations } from '../json-schema';
import type { ToolDefinition } from '../protocol';
import { describe, isPlainObject, named, parseJsonField } from '../values';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const SCHEMA_FIX =
	'Give a JSON schema object such as {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}, "required": ["city"]}.';

/**
 * A tool's parameters: a JSON Schema checked as a whole (a misspelled `type` anywhere, `required` names
 * `properties` lacks, bad patterns, ...) whose top is an object, since the arguments are an object.
 */
export function checkParameters(value: unknown, field: string): Record<string, unknown> {
	const schema = parseJsonField(value, field, SCHEMA_FIX) ?? { type: 'object', properties: {} };
	if (!isPlainObject(schema)) {
		throw new InputError(
			field,
			`must be a JSON schema object, got ${describe(schema)}`,
			SCHEMA_FIX,
		);
	}
	const problems = checkSchema(schema);
	if (problems.length > 0) {
		throw new InputError(
			field,
			`is not a valid schema: ${describeViolations(problems)}`,
			SCHEMA_FIX,
		);
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

export function checkName(value: unknown, field: string): string {
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

/**
 * A protocol `tools` array (typed, or as JSON text) checked: every tool a function with a valid name
 * and a parameters schema. `field` is the label the messages name.
 */
export function checkTools(value: unknown, field: string): ToolDefinition[] {
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
