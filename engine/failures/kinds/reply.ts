import {
	CutReplyError,
	IncompleteReplyError,
	MismatchedReplyError,
	ReplyError,
	StreamFormatError,
	StructuredReplyError,
	ToolArgumentsError,
	UnknownToolError,
} from '../errors';
import type { FailureKind, Words, WordsContext } from '../kind';
import { kind } from '../kind';

/** The service answered 2xx, but with a reply that cannot be passed on as it is: its kinds. */

/** Where the text received before a reply broke off can be found, in the node's terms. */
function kept({ words }: WordsContext): string {
	return words.errorDetails
		? 'The text received so far is in error_details.partial_content (with On Error: Continue).'
		: 'The partial reply is not passed on as an answer.';
}

function incompleteWords(error: IncompleteReplyError, context: WordsContext): Words {
	const fixes: Record<IncompleteReplyError['cut'], string> = {
		finish: `Gateways end a reply this way when the model provider failed part way. ${kept(context)} Run again; if it keeps happening with this model, report it to the service.`,
		connection: `The service or a proxy between n8n and it closed the connection in the middle of the reply. ${kept(context)} Run again; if it keeps happening with long replies, check proxies and load balancers for a time limit on connections.`,
		silence: `The service stopped sending in the middle of the reply. ${kept(context)} Raise ${context.option('timeout')} if the model pauses that long while writing, or run again.`,
	};
	return {
		message: error.message,
		fix: fixes[error.cut],
		details: { partial_content: error.partialContent },
	};
}

function structuredWords(error: StructuredReplyError, context: WordsContext): Words {
	const { option, words } = context;
	const ways = `raise ${option('repairAttempts')} (it sends a reply that does not fit back to the model), make the schema simpler, or choose a model that is better at structured output.`;
	if (words.errorDetails) {
		return {
			message: error.message,
			fix: `The model's last answer is in error_details.raw_content (with On Error: Continue). Run again, ${ways}`,
			details: { raw_content: error.rawContent, violations: error.problems },
		};
	}
	const answer =
		error.rawContent.length > 200 ? `${error.rawContent.slice(0, 200)}…` : error.rawContent;
	return {
		message: error.message,
		fix: `The model answered: ${answer === '' ? '(nothing)' : answer}. Run again, ${ways}`,
		details: { raw_content: error.rawContent, violations: error.problems },
	};
}

function cutWords(error: CutReplyError, { option, maxTokens }: WordsContext): Words {
	const limit =
		maxTokens === undefined
			? `the service's default limit (${option('maxTokens')} is not set)`
			: `${option('maxTokens')} (${maxTokens})`;
	const tokens =
		error.completionTokens === undefined ? '' : ` after ${error.completionTokens} tokens`;
	return {
		message: `The model's reply was cut off at the token limit${tokens}: ${limit}`,
		fix: `The reply is not passed on as a complete answer. Raise ${option('maxTokens')}, or ask for a shorter answer in the prompt.`,
		failure: { cause: 'configuration-invalid' },
	};
}

/** A row for one class of reply failures; `anotherModel`: another model may write a whole reply. */
export function reply<E extends ReplyError>(
	name: string,
	type: abstract new (...args: never[]) => E,
	words: (error: E, context: WordsContext) => Words,
	anotherModel = false,
	listed?: string,
): FailureKind {
	return kind<E>({
		name,
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel,
		listed,
		matches: (error): error is E => error instanceof type,
		words,
	});
}

/**
 * A row for a reply that does not fit what was sent (`MismatchedReplyError`): never retried, and no other model
 * (vectors or scores of different models must not mix). The message names the model; the fix is the row's, or
 * the error's own.
 */
export function mismatchedReply<E extends MismatchedReplyError>(
	name: string,
	type: abstract new (...args: never[]) => E,
	fix: string | ((error: E) => string),
): FailureKind {
	return reply(name, type, (error, { model }) => ({
		message: `The ${error.modelKind} model${model ? ` "${model}"` : ''} ${error.problem}`,
		fix: typeof fix === 'string' ? fix : fix(error),
	}));
}

export const REPLY_KINDS: FailureKind[] = [
	reply(
		'reply cut off',
		IncompleteReplyError,
		incompleteWords,
		true,
		'a reply the gateway cut off',
	),
	reply(
		'reply not valid JSON',
		StructuredReplyError,
		structuredWords,
		false,
		'JSON that does not fit the schema after the repairs',
	),
	reply('reply at the token limit', CutReplyError, cutWords),
	reply('tool arguments not an object', ToolArgumentsError, (error) => ({
		message: error.message,
		fix: "The agent cannot run the tool with that. Run again, describe the tool's parameters more clearly, or choose a model that is better at calling tools.",
	})),
	reply('tool not connected', UnknownToolError, (error) => ({
		message: error.message,
		fix: "The agent would drop the call without a word. Run again, name the tools in the agent's system message, or connect the tool the model asks for.",
	})),
	reply('stream not chat chunks', StreamFormatError, (error, { words, option }) => ({
		message: error.message,
		fix: `The service began a stream but its events were not chat-completion chunks. Run again; if it keeps happening with this model, report it to the service${words.options.includes('stream') ? `, or switch ${option('stream')} off` : ''}.`,
	})),
	reply('reply not a completion', ReplyError, (error) => ({
		message: error.message,
		fix: 'The answer did not follow the chat-completions format. Check that the Base URL points to a chat-completions service.',
	})),
];
