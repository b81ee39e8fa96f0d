import type { ChatMessage, ChatRequestBody } from '../protocol';
import type { StructuredOutput } from '../request/response-format';

/** What the model is told when the service cannot take `response_format`: the same demand, in words. */
function instruction(structured: StructuredOutput): string {
	if (structured.schema === undefined) {
		return 'Answer with a single JSON object and nothing else: no Markdown, no explanation.';
	}
	return `Answer with a single JSON value that follows this JSON Schema, and nothing else: no Markdown, no explanation.\n${JSON.stringify(structured.schema)}`;
}

/** The request without `response_format`, its demand given as a first system message instead. */
export function withInstruction(
	body: ChatRequestBody,
	structured: StructuredOutput,
): ChatRequestBody {
	const system: ChatMessage = { role: 'system', content: instruction(structured) };
	const instructed: ChatRequestBody = { ...body, messages: [system, ...body.messages] };
	delete instructed.response_format;
	return instructed;
}

/** The conversation sent back after an answer that was not valid: the answer, what is wrong, the demand again. */
export function repairRequest(
	body: ChatRequestBody,
	answer: string,
	problems: string,
	structured: StructuredOutput,
): ChatRequestBody {
	return {
		...body,
		messages: [
			...body.messages,
			{ role: 'assistant', content: answer },
			{
				role: 'user',
				content: `Your answer is not valid: ${problems}. ${instruction(structured)} Send the corrected JSON only.`,
			},
		],
	};
}
