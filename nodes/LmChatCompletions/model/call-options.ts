import type { protocol } from '../../../engine';
import { errors, values } from '../../../engine';

/**
 * The call options LangChain code passes a chat model, under ChatOpenAI's names, besides the SDK's own:
 * they arrive through n8n's adapter (`invoke(messages, options)`, `withConfig`, and what `bindTools` and
 * `withStructuredOutput` bind).
 */
export interface LangChainCallOptions {
	/** See tool-choice.ts. */
	tool_choice?: unknown;
	/** Every bound tool is sent with `function.strict`. */
	strict?: unknown;
	/** The protocol's `response_format`: text, json_object, or json_schema with its schema. */
	response_format?: unknown;
	stop?: string[];
}

const FIELD = 'response_format';
const FIX =
	'Give {"type": "json_object"}, or {"type": "json_schema", "json_schema": {"name": "answer", "schema": {...}}}.';

/** What a call's `response_format` asks for, as the option table's Response Format settings. */
export interface CallFormat {
	/** Response Format, JSON Schema and Strict Schema, as the Options collection names them. */
	options: Record<string, unknown>;
	/** `json_schema.name`, sent in place of the node's own. */
	schemaName?: string;
}

export function callFormat(format: unknown): CallFormat {
	if (format === undefined || format === null) return { options: {} };
	const type = values.isPlainObject(format) ? format.type : undefined;
	if (type === 'text') return { options: { responseFormat: 'text' } };
	if (type === 'json_object') return { options: { responseFormat: 'jsonObject' } };
	if (type !== 'json_schema') {
		throw new errors.InputError(FIELD, `has the type ${JSON.stringify(type)}`, FIX);
	}
	const spec = (format as Record<string, unknown>).json_schema;
	if (!values.isPlainObject(spec) || !values.isPlainObject(spec.schema)) {
		throw new errors.InputError(FIELD, 'has no json_schema.schema object', FIX);
	}
	return {
		options: {
			responseFormat: 'jsonSchema',
			jsonSchema: spec.schema,
			strictSchema: spec.strict === true,
		},
		schemaName: typeof spec.name === 'string' && spec.name !== '' ? spec.name : undefined,
	};
}

/** Names the body's `json_schema` as the call did. */
export function nameSchema(body: protocol.ChatRequestBody, name: string | undefined): void {
	const format = body.response_format;
	if (
		name === undefined ||
		!values.isPlainObject(format) ||
		!values.isPlainObject(format.json_schema)
	)
		return;
	format.json_schema.name = name;
}
