import type { INode, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CutReplyError, ToolArgumentsError, UnknownToolError } from './reply';
import type { Problem, ProblemContext } from '../../../engine';
import {
	describeProblem,
	IncompleteReplyError,
	optionPath,
	redactApiKey,
	StructuredReplyError,
	toNodeError,
} from '../../../engine';

/**
 * A failure of the Chat Model as the error its AI node shows. The AI Agent (and the other AI nodes) keep
 * only `error.message`, so the message says everything: what happened, the service's own words, and
 * the fix. The panels show the description below the message, so it repeats nothing (a network error's
 * code), but for a call that streamed to a chat client: n8n sends such a client the description alone.
 */

export interface ModelProblemContext extends Omit<ProblemContext, 'streaming'> {
	/** Options > Maximum Tokens, when set. */
	maxTokens?: number;
	/** The call streamed its reply to a chat client. */
	streamed?: boolean;
}

function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Words of our own where the Chat Completion node's point at its fields or its error item. */
function modelProblem(error: unknown, context: ModelProblemContext): Problem | undefined {
	if (error instanceof CutReplyError) {
		const limit =
			context.maxTokens === undefined
				? `the service's default limit (${optionPath('maxTokens')} is not set)`
				: `${optionPath('maxTokens')} (${context.maxTokens})`;
		const tokens =
			error.completionTokens === undefined ? '' : ` after ${error.completionTokens} tokens`;
		return {
			kind: 'api',
			message: `The model's reply was cut off at the token limit${tokens}: ${limit}`,
			description: `The reply is not passed on as a complete answer. Raise ${optionPath('maxTokens')}, or ask for a shorter answer in the prompt.`,
			failure: { cause: 'configuration-invalid' },
		};
	}
	if (error instanceof ToolArgumentsError) {
		return {
			kind: 'api',
			message: error.message,
			description:
				"The agent cannot run the tool with that. Run again, describe the tool's parameters more clearly, or choose a model that is better at calling tools.",
		};
	}
	if (error instanceof UnknownToolError) {
		return {
			kind: 'api',
			message: error.message,
			description:
				"The agent would drop the call without a word. Run again, name the tools in the agent's system message, or connect the tool the model asks for.",
		};
	}
	if (error instanceof StructuredReplyError) {
		const answer =
			error.rawContent.length > 200 ? `${error.rawContent.slice(0, 200)}…` : error.rawContent;
		return {
			kind: 'api',
			message: error.message,
			description: `The model answered: ${answer === '' ? '(nothing)' : answer}. Run again, make the schema simpler, or choose a model that is better at structured output; ${optionPath('repairAttempts')} sends a JSON reply that does not fit back to the model (Response Format, and withStructuredOutput's jsonSchema method).`,
		};
	}
	if (error instanceof IncompleteReplyError) {
		return {
			kind: 'api',
			message: error.message,
			description:
				'Gateways end a reply this way when the model provider failed part way; the partial reply is not passed on as an answer. Run again; if it keeps happening with this model, report it to the service.',
		};
	}
	return undefined;
}

export function modelError(
	node: INode,
	error: unknown,
	context: ModelProblemContext,
): NodeApiError | NodeOperationError {
	const problem = describeProblem(error, { ...context, withoutConcurrency: true });
	const ours =
		modelProblem(error, context) ??
		// A failure the engine has no words for (its generic text names the other node).
		(problem.description === describeProblem(new Error(''), {}).description
			? {
					kind: 'api',
					message: problem.message,
					description: 'Unexpected failure in the Chat Completions Chat Model.',
				}
			: undefined);
	const shown: Problem = ours
		? {
				...problem,
				...ours,
				message: redactApiKey(ours.message, context.apiKey ?? ''),
				description: redactApiKey(ours.description, context.apiKey ?? ''),
			}
		: problem;
	// n8n swaps a message that names a system error code for a generic headline when it wraps the error
	// (the AI Agent does, under Stop Workflow): the code goes in the description.
	const [fix, code] = splitNetworkCode(shown.description);
	const message = `${sentence(shown.message)} ${fix}`;
	// n8n drops a description equal to the message. A chat client that was streamed to gets the
	// description alone: it says it all, with what failed; the panels show it below the message.
	const description = context.streamed
		? `${node.name} failed: ${message}${code ? ` ${code}` : ''}`
		: (code ?? '');
	return toNodeError(node, { ...shown, message, description });
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
