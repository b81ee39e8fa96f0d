import { InputError } from '../failures/errors';
import { checkSchema, describeViolations } from '../json-schema';
import {
	optionChoice,
	optionSetting,
	placedOptionPath,
	responseFormatInOptions,
} from '../options/read';
import { isPlainObject, parseJsonField } from '../values';
import { OPTIONS, optionLabel, optionPath } from '../options/table';

/** What a JSON reply must be, for checking it and repairing it after it comes back. */
export interface StructuredOutput {
	format: 'jsonObject' | 'jsonSchema';
	/** The JSON Schema of Response Format "JSON Schema". */
	schema?: Record<string, unknown>;
	repairAttempts: number;
}

/** The `json_schema.name` sent: the protocol requires one, and it means nothing to the user. */
const SCHEMA_NAME = 'response';
const FIELD = optionLabel('jsonSchema');
const FIX =
	'Give a JSON Schema object such as {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}.';

/**
 * The example JSON Schema shows when chosen, as sent: a field left untouched. Its `$comment` tells it from the
 * same schema typed or kept on purpose (without the comment), which is taken.
 */
const EXAMPLE = JSON.stringify(
	JSON.parse(OPTIONS.find((spec) => spec.name === 'jsonSchema')!.default as string),
);

function checkedSchema(value: unknown, where: string): Record<string, unknown> {
	const schema = parseJsonField(value, FIELD, FIX);
	if (JSON.stringify(schema) === EXAMPLE) {
		throw new InputError(
			FIELD,
			'is still the example it shows when chosen (name and age)',
			'Replace it with the schema of the reply you want, e.g. the fields to extract and their types.',
		);
	}
	if (schema === undefined) {
		throw new InputError(
			FIELD,
			'is not set, and Response Format "JSON Schema" needs it',
			`Fill in ${where}. ${FIX}`,
		);
	}
	if (!isPlainObject(schema)) throw new InputError(FIELD, 'must be a JSON Schema object', FIX);
	const problems = checkSchema(schema);
	if (problems.length > 0) {
		throw new InputError(FIELD, `is not a valid schema: ${describeViolations(problems)}`, FIX);
	}
	return schema;
}

/**
 * The `response_format` field of Response Format, and what the reply is checked against. Text sends
 * nothing and checks nothing.
 */
export function buildResponseFormat(options: Record<string, unknown>): {
	body: Record<string, unknown>;
	structured?: StructuredOutput;
} {
	const format = optionChoice(options, 'responseFormat');
	if (format === 'text') return { body: {} };
	const repairAttempts = optionSetting(options, 'repairAttempts');
	if (format === 'jsonObject') {
		return {
			body: { response_format: { type: 'json_object' } },
			structured: { format, repairAttempts },
		};
	}
	// Where the field is in this node version: below Response Format, or added to Options.
	const where = responseFormatInOptions(options)
		? `${placedOptionPath(options, 'jsonSchema')} (Add Option > JSON Schema)`
		: `${optionPath('jsonSchema')}, below Response Format`;
	const schema = checkedSchema(options.jsonSchema, where);
	return {
		body: {
			response_format: {
				type: 'json_schema',
				json_schema: { name: SCHEMA_NAME, schema, strict: options.strictSchema === true },
			},
		},
		structured: { format: 'jsonSchema', schema, repairAttempts },
	};
}
