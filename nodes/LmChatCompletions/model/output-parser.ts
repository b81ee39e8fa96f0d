import type { ChatRequest } from '../../../engine';
import { errors } from '../../../engine';

/**
 * n8n's AI Agent turns its Structured Output Parser into a tool of this name, which the model must call
 * with the final answer. With Response Format asking for JSON, the model writes JSON text instead of
 * calling it, and n8n reports "The AI model returned an empty response to the Structured Output Parser".
 */
const PARSER_TOOL = 'format_final_json_response';

/** Refuses a request that asks for JSON while the AI Agent's Structured Output Parser expects its tool call. */
export function checkOutputParser(request: ChatRequest): void {
	const parser = request.body.tools?.some((tool) => tool.function.name === PARSER_TOOL);
	if (parser && request.structured !== undefined) {
		throw new errors.InputError(
			'Response Format',
			'asks for JSON while the AI Agent has a Structured Output Parser, which takes the answer from a tool call: with both, the parser gets nothing',
			'Use one of the two: set Response Format to Text and keep the Structured Output Parser, or switch off Require Specific Output Format in the AI Agent and keep Response Format.',
		);
	}
}
