import { getParametersJsonSchema } from '@n8n/ai-node-sdk';

import { errors, readJson, values } from '../../../engine';

/**
 * LangChain's `withStructuredOutput(schema, { method, includeRaw, name, strict })` on the fitted adapter,
 * for Zod and JSON schemas (what the LangChain Code node and other packages call):
 *
 * - `functionCalling` (the default: every tool-calling model behind a gateway has it): the schema as a
 *   tool the model must call;
 * - `jsonSchema`: `response_format` json_schema, through the structured output of the Chat Model's own
 *   Response Format (checked here, repaired with Repair Attempts, asked as an instruction where the
 *   service refuses json_schema);
 * - `jsonMode`: `response_format` json_object, the reply checked against the schema here.
 *
 * The reply's value is checked against the schema (and parsed by the Zod schema); one that does not fit
 * is an error that says what is wrong. `includeRaw` gives `{ raw, parsed }`.
 */

type Json = Record<string, unknown>;
type Method = (this: unknown, ...args: unknown[]) => unknown;

const METHODS = ['functionCalling', 'jsonSchema', 'jsonMode'] as const;
type StructuredMethod = (typeof METHODS)[number];

export interface StructuredOutputConfig {
	method?: string;
	includeRaw?: boolean;
	name?: string;
	strict?: boolean;
}

const FIELD = 'withStructuredOutput';

interface Target {
	/** The function's name (functionCalling) and the schema's (jsonSchema). */
	name: string;
	description?: string;
	jsonSchema: Json;
	/** The schema as LangChain traces it (LangSmith's ls_structured_output_format): as given or converted. */
	traced: Json;
	/** The Zod schema, which parses the checked value. */
	zod?: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } };
}

const isZod = (schema: unknown): schema is NonNullable<Target['zod']> =>
	values.isPlainObject(schema) && typeof schema.safeParse === 'function';

/** The schema without `$schema`: Zod's converter names draft-07, the schema is read as draft 2020-12. */
function withoutDialect(schema: Json): Json {
	return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
}

/** The schema as JSON Schema with its name: a Zod schema, a JSON Schema, or an OpenAI function ({name, parameters}). */
function target(schema: unknown, name: string | undefined): Target {
	if (isZod(schema)) {
		const converted = getParametersJsonSchema({
			type: 'function',
			name: 'schema',
			inputSchema: schema as never,
		});
		if (!values.isPlainObject(converted) || isZod(converted)) {
			throw new errors.InputError(
				FIELD,
				'cannot turn this Zod schema into JSON Schema',
				'Give a Zod object schema (zod 3) or a JSON Schema object.',
			);
		}
		const jsonSchema = withoutDialect(converted);
		const description =
			typeof jsonSchema.description === 'string' ? jsonSchema.description : undefined;
		return { name: name ?? 'extract', description, jsonSchema, traced: converted, zod: schema };
	}
	if (!values.isPlainObject(schema)) {
		throw new errors.InputError(
			FIELD,
			'needs a schema',
			'Give a Zod object schema or a JSON Schema object.',
		);
	}
	if (typeof schema.name === 'string' && values.isPlainObject(schema.parameters)) {
		const description = typeof schema.description === 'string' ? schema.description : undefined;
		const jsonSchema = withoutDialect(schema.parameters);
		return { name: name ?? schema.name, description, jsonSchema, traced: schema.parameters };
	}
	const jsonSchema = withoutDialect(schema);
	const title = typeof schema.title === 'string' ? schema.title : undefined;
	const description = typeof schema.description === 'string' ? schema.description : undefined;
	return { name: name ?? title ?? 'extract', description, jsonSchema, traced: schema };
}

function issues(error: unknown): string {
	const list = values.isPlainObject(error) ? error.issues : undefined;
	if (!Array.isArray(list)) return String(error);
	return list
		.map((issue: Json) => {
			const path = Array.isArray(issue.path) ? issue.path.join('.') : '';
			return `${path === '' ? '$' : `$.${path}`}: ${String(issue.message)}`;
		})
		.join('; ');
}

/** The value the reply gives, checked against the schema (and parsed by the Zod schema). */
function parse(message: unknown, method: StructuredMethod, spec: Target): unknown {
	const reply = values.isPlainObject(message) ? message : {};
	const what = `The model's structured output ("${spec.name}", ${method})`;
	let value: unknown;
	let raw: string;
	if (method === 'functionCalling') {
		const calls = Array.isArray(reply.tool_calls) ? (reply.tool_calls as Json[]) : [];
		const call = calls.find((candidate) => candidate.name === spec.name);
		raw = typeof reply.text === 'string' ? reply.text : '';
		if (call === undefined) {
			const problem = `the model did not call "${spec.name}"`;
			throw new errors.StructuredReplyError(`${what} is missing: ${problem}`, raw, problem);
		}
		value = call.args;
		raw = JSON.stringify(value);
	} else {
		const metadata = values.isPlainObject(reply.response_metadata) ? reply.response_metadata : {};
		raw = typeof reply.text === 'string' ? reply.text : '';
		value = 'parsed' in metadata ? metadata.parsed : undefined;
	}
	const reading = readJson(value === undefined ? raw : JSON.stringify(value), {
		format: 'jsonSchema',
		schema: spec.jsonSchema,
		repairAttempts: 0,
	});
	if (!reading.ok) {
		throw new errors.StructuredReplyError(
			`${what} does not fit the schema: ${reading.problems}`,
			raw,
			reading.problems,
		);
	}
	if (spec.zod === undefined) return reading.value;
	const parsed = spec.zod.safeParse(reading.value);
	if (!parsed.success) {
		const problems = issues(parsed.error);
		throw new errors.StructuredReplyError(
			`${what} does not fit the Zod schema: ${problems}`,
			raw,
			problems,
		);
	}
	return parsed.data;
}

/** `withStructuredOutput` of the adapter `this` (a LangChain chat model with a fitted `bindTools`). */
export function structuredOutput(
	adapter: Json,
	schema: unknown,
	config: StructuredOutputConfig | undefined,
	failure: (error: unknown) => unknown,
): unknown {
	const method = (config?.method ?? 'functionCalling') as StructuredMethod;
	if (!METHODS.includes(method)) {
		throw failure(
			new errors.InputError(
				`${FIELD} method`,
				`"${String(method)}" is not a method`,
				`Use ${METHODS.map((name) => `"${name}"`).join(', ')}.`,
			),
		);
	}
	let spec: Target;
	try {
		spec = target(schema, config?.name);
	} catch (error) {
		throw failure(error);
	}
	const strict = config?.strict === true;
	const tracing = { ls_structured_output_format: { kwargs: { method }, schema: spec.traced } };
	const withConfig = (runnable: unknown, options: Json) =>
		((runnable as Json).withConfig as Method).call(runnable, options) as Json;
	let model: Json;
	if (method === 'functionCalling') {
		const tool = {
			type: 'function',
			function: { name: spec.name, description: spec.description, parameters: spec.jsonSchema },
		};
		const bound = (adapter.bindTools as Method).call(adapter, [tool], {
			tool_choice: spec.name,
			...(strict ? { strict } : {}),
		});
		model = withConfig(bound, tracing);
	} else {
		const format =
			method === 'jsonMode'
				? { type: 'json_object' }
				: {
						type: 'json_schema',
						json_schema: { name: spec.name, schema: spec.jsonSchema, strict },
					};
		model = withConfig(adapter, { ...tracing, response_format: format });
	}
	const read = (message: unknown) => {
		try {
			return parse(message, method, spec);
		} catch (error) {
			throw failure(error);
		}
	};
	const output =
		config?.includeRaw === true ? (raw: unknown) => ({ raw, parsed: read(raw) }) : read;
	return (model.pipe as Method).call(model, output);
}
