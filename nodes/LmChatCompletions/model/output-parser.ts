import type { ChatRequest } from '../../../engine';
import { errors } from '../../../engine';

/**
 * n8n's AI Agent turns its Structured Output Parser into a tool of this name, which the model must call
 * with the final answer. With Response Format asking for JSON, the model writes JSON text instead of
 * calling it, and n8n reports "The AI model returned an empty response to the Structured Output Parser".
 */
const PARSER_TOOL = 'format_final_json_response';

/**
 * What LangChain's structured output parser writes into the prompt (n8n's Basic LLM Chain with Require
 * Specific Output Format, and the other chains with an output parser): the parser reads the model's text
 * as JSON of its own wrapper (`{"output": ...}`), which a reply in Response Format's own JSON Schema is not
 * (a JSON Object reply follows the prompt, so the parser reads it).
 */
const PARSER_INSTRUCTIONS =
	'You must format your output as a JSON value that adheres to a given "JSON Schema" instance';

/** Whether a message of the request holds the output parser's instructions. */
function instructsParser(request: ChatRequest): boolean {
	return request.body.messages.some((message) => {
		const { content } = message;
		if (typeof content === 'string') return content.includes(PARSER_INSTRUCTIONS);
		return (
			Array.isArray(content) &&
			content.some((part) => part.type === 'text' && part.text.includes(PARSER_INSTRUCTIONS))
		);
	});
}

/**
 * Refuses a request whose Response Format keeps an output parser of the AI node from reading the answer: any JSON
 * beside the AI Agent's Structured Output Parser (a tool call), and JSON Schema beside a chain's (its format
 * instructions in the prompt).
 */
export function checkOutputParser(request: ChatRequest): void {
	if (request.structured === undefined) return;
	if (request.body.tools?.some((tool) => tool.function.name === PARSER_TOOL)) {
		throw new errors.InputError(
			'Response Format',
			'asks for JSON while the AI Agent has a Structured Output Parser, which takes the answer from a tool call: with both, the parser gets nothing',
			'Use one of the two: set Response Format to Text and keep the Structured Output Parser, or switch off Require Specific Output Format in the AI Agent and keep Response Format.',
		);
	}
	if (request.structured.format === 'jsonSchema' && instructsParser(request)) {
		throw new errors.InputError(
			'Response Format',
			"JSON Schema asks for JSON in its schema while the chain's output parser (Require Specific Output Format) asks the model for JSON of its own in the prompt: with both, the parser gets JSON it cannot read",
			'Set Response Format to JSON Object or Text and keep the output parser, or switch off Require Specific Output Format in the chain and keep Response Format.',
		);
	}
}
