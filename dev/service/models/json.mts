/**
 * `json-1` answers JSON the way structured-output models do. With response_format `json_schema`: a value
 * built from the schema (schema-example.mts). With `json_object`, or with no response_format when a message
 * mentions JSON (a model asked for JSON in words): a value built from the last object schema written in a
 * system or user message (how clients and LiteLLM pass a schema to vendors that refuse `json_schema`), else
 * `{"answer": "<last user text>"}`. Otherwise it echoes like echo-1. Cut to max_tokens words like the others.
 */
import type { ChatRequest } from '../chat-request.mts';
import { jsonText, type Json } from '../json-value.mts';
import { invalidJsonText } from '../knob-invalid-json.mts';
import { lastUserText } from '../message-text.mts';
import { mentionsJson } from '../response-format.mts';
import { exampleValue, type ExampleOptions } from '../schema-example.mts';
import { schemaInMessages } from '../schema-in-text.mts';
import { echoReply, limitedReply } from './echo.mts';
import { releaseDate, type ModelContext, type ModelDefinition, type ModelReply } from './model.mts';

const model = 'json-1-2026-11-01';

/** The schema of the `{"answer": ...}` object, which `invalid_json` breaks in `schema` mode. */
const answerSchema: Json = {
	type: 'object',
	properties: { answer: { type: 'string' } },
	required: ['answer'],
};

/**
 * The JSON value to answer and the schema it follows; undefined when plain text is asked for. Also what the
 * reasoning models answer with the `follow_schema` knob (reasoning.mts), which decides the booleans.
 */
export function jsonAnswer(
	request: ChatRequest,
	options: ExampleOptions = {},
): { value: unknown; schema: Json } | undefined {
	const format = request.responseFormat;
	const text = lastUserText(request.messages);
	if (format.type === 'json_schema') {
		return { value: exampleValue(format.schema, text, options), schema: format.schema };
	}
	if (format.type === 'text' && !mentionsJson(request.messages)) return undefined;
	const schema = schemaInMessages(request.messages);
	if (schema === undefined) return { value: { answer: text }, schema: answerSchema };
	return { value: exampleValue(schema, text, options), schema };
}

function respond(request: ChatRequest, context: ModelContext): ModelReply {
	const answer = jsonAnswer(request);
	if (answer === undefined) return echoReply(model, request);
	const text =
		context.invalidJson === undefined
			? jsonText(answer.value)
			: invalidJsonText(answer.value, answer.schema, context.invalidJson);
	return limitedReply(model, text, request);
}

export const jsonModel: ModelDefinition = {
	id: 'json-1',
	created: releaseDate,
	ownedBy: 'local-json',
	respond,
};
