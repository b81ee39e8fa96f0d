import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CHAT_MODEL_OPTIONS } from '../properties';
import { problems } from '../../../engine';

/**
 * A failure of the Chat Model as the error its AI node shows. The AI Agent (and the other AI nodes) keep
 * only `error.message`, so the message says everything: what happened, the service's own words, and
 * the fix. The panels show the description below the message, so it repeats nothing (a network error's
 * code), but for a call that streamed to a chat client: n8n sends such a client the description alone.
 */

/** How the engine's words name this node and its fields. */
export const WORDS: problems.NodeWords = {
	node: 'the Chat Completions Chat Model',
	options: CHAT_MODEL_OPTIONS,
	errorDetails: false,
	reasoningMissing:
		"The model thinks before it calls tools and wants that reasoning back. The Chat Model sends it back with the tool calls made in this execution; a conversation kept from an earlier one (the agent's memory) lacks it: clear the memory, or choose a model that does not think before calling tools.",
	reasoningRefused:
		"This service takes no reasoning on the messages sent to it: the conversation (the agent's memory) holds reasoning from another service. Clear the memory, or start a new chat session.",
};

export interface ModelProblemContext extends Omit<problems.ProblemContext, 'streaming' | 'words'> {
	/** The call streamed its reply to a chat client. */
	streamed?: boolean;
}

function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function modelError(
	node: INode,
	error: unknown,
	context: ModelProblemContext,
): NodeApiError | NodeOperationError {
	const problem = problems.describeProblem(error, { ...context, words: WORDS });
	// n8n swaps a message that names a system error code for a generic headline when it wraps the error
	// (the AI Agent does, under Stop Workflow): the code goes in the description.
	const [fix, code] = splitNetworkCode(problem.description);
	const message = `${sentence(problem.message)} ${fix}`;
	// n8n drops a description equal to the message. A chat client that was streamed to gets the
	// description alone: what happened in a chat user's words (the execution keeps the message).
	const description = context.streamed ? problems.chatWords(problem) : (code ?? '');
	return problems.toNodeError(node, { ...problem, message, description });
}

/** The fix, and the "(network error ECONNREFUSED)" at its end apart, when there is one. */
function splitNetworkCode(text: string): [string, string | undefined] {
	const found = / (\(network error [A-Z_]+\))$/.exec(text);
	return found ? [text.slice(0, found.index), found[1]] : [text, undefined];
}

/** Marks the error as the model node's own (a setting, the n8n version): n8n then passes it on unchanged. */
export function configurationError<T extends NodeApiError | NodeOperationError>(error: T): T {
	error.functionality = 'configuration-node';
	return error;
}
