import type { protocol } from '../../../engine';
import { errors, values } from '../../../engine';

/**
 * LangChain's `tool_choice` (given to `bindTools(tools, { tool_choice })` or as a call option) as the
 * protocol's. LangChain and its providers spell "a tool must be called" as `any` (n8n's AI Agent, Force
 * Tool Call on First Iteration) or `required`; a tool is named by its name, or as an object in OpenAI's or
 * Anthropic's shape.
 */

type ToolChoice = protocol.ChatRequestBody['tool_choice'];

const FIELD = 'tool_choice';

const WORDS = new Map<string, ToolChoice>([
	['any', 'required'],
	['required', 'required'],
	['auto', 'auto'],
	['none', 'none'],
]);

/** A word (`any`, `auto`, ... also as Anthropic's `{type: 'any'}`) or the name of a function. */
function read(choice: unknown): { word?: ToolChoice; name?: string } {
	if (typeof choice === 'string') {
		return WORDS.has(choice) ? { word: WORDS.get(choice) } : { name: choice };
	}
	if (!values.isPlainObject(choice) || typeof choice.type !== 'string') return {};
	if (choice.type === 'function' || choice.type === 'tool') {
		// OpenAI's {type: 'function', function: {name}}, Anthropic's {type: 'tool', name}.
		const name = values.isPlainObject(choice.function) ? choice.function.name : choice.name;
		return typeof name === 'string' ? { name } : {};
	}
	return { word: WORDS.get(choice.type) };
}

function shown(choice: unknown): string {
	return typeof choice === 'string' ? `"${choice}"` : JSON.stringify(choice);
}

/** The protocol's `tool_choice` for LangChain's, checked against the bound tools; undefined sends none. */
export function toolChoiceOf(choice: unknown, boundNames: readonly string[]): ToolChoice {
	if (choice === undefined || choice === null) return undefined;
	const { word, name } = read(choice);
	if (word === undefined && name === undefined) {
		throw new errors.InputError(
			FIELD,
			`${shown(choice)} is not a tool choice`,
			'Use "auto", "none", "required" (or "any"), or the name of a bound tool.',
		);
	}
	if (boundNames.length === 0) {
		// Without tools, "auto" and "none" mean what they say anyway.
		if (word === 'auto' || word === 'none') return undefined;
		throw new errors.InputError(
			FIELD,
			`${shown(choice)} asks the model to call a tool, but no tool is connected to the AI node`,
			'Connect a tool to the AI Agent, or switch off its option Force Tool Call on First Iteration (in LangChain code: pass the tools to bindTools with the tool_choice).',
		);
	}
	if (name === undefined) return word;
	if (!boundNames.includes(name)) {
		throw new errors.InputError(
			FIELD,
			`names the tool "${name}", which is not bound (bound: ${boundNames.map((bound) => `"${bound}"`).join(', ')})`,
			'Name one of the bound tools, or bind the tool you name.',
		);
	}
	return { type: 'function', function: { name } };
}
