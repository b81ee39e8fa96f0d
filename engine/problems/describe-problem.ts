import { BaseError } from 'n8n-workflow';

import type { Problem, ProblemContext } from './problem';
import { serviceProblem } from './service-problem';
import { redactApiKey } from '../connection';
import { isTimeout } from '../retry/policy';
import {
	ConnectionError,
	IncompleteReplyError,
	InputError,
	ModelsFailed,
	StructuredReplyError,
	TokenBudgetSpent,
	NetworkError,
	RateLimitWaitExceeded,
	RefusedByN8n,
	ReplyError,
	ServiceError,
	StreamFormatError,
} from '../failures';
import { optionPath } from '../options/table';

const NETWORK_WORDS: Record<string, [string, string]> = {
	ECONNREFUSED: [
		'refused the connection',
		'Check the Base URL in the credential and that the service is running and reachable from n8n.',
	],
	ENOTFOUND: [
		'has a host name that could not be found',
		"Check the host name in the credential's Base URL.",
	],
	EAI_AGAIN: [
		'has a host name that could not be looked up',
		'Check the host name in the Base URL and the DNS of the n8n machine.',
	],
	ECONNRESET: [
		'closed the connection before answering',
		'Run again; if it keeps happening, check proxies between n8n and the service.',
	],
	ERR_CANCELED: [
		'was left because the execution was cancelled',
		'Nothing to fix: the execution was stopped.',
	],
};

/** `500 ms`, `90000 ms (1.5 min)`. */
function duration(ms: number): string {
	if (ms < 60_000) return `${ms} ms`;
	return `${ms} ms (${Math.round(ms / 6_000) / 10} min)`;
}

/** No answer within Timeout: the message states it, the fix says how to raise it and why it is not retried. */
function timeoutProblem(error: NetworkError): Problem {
	const within =
		error.timeoutMs === undefined ? 'the timeout' : `the Timeout of ${duration(error.timeoutMs)}`;
	const raise =
		error.timeoutMs === undefined
			? `Raise ${optionPath('timeout')} for long answers.`
			: `Raise ${optionPath('timeout')} above ${error.timeoutMs} for long answers.`;
	// Sent more than once, so Retry Timeouts is on: each attempt timed out.
	const again =
		error.attempts > 1
			? `Each attempt waited that long (${optionPath('retryTimeouts')} is on).`
			: `A request that timed out is not sent again unless ${optionPath('retryTimeouts')} is on: the service may still be writing, and billing, the answer.`;
	return {
		kind: 'api',
		message: `The service at ${error.url} did not answer within ${within}`,
		description: `${raise} ${again} (network error ${error.code})`,
		failure: { cause: 'temporarily-unavailable' },
	};
}

function networkProblem(error: NetworkError): Problem {
	if (isTimeout(error)) return timeoutProblem(error);
	const [words, fix] = NETWORK_WORDS[error.code] ?? [
		'could not be reached',
		'Check the Base URL in the credential and the network between n8n and the service.',
	];
	return {
		kind: 'api',
		message: `The service at ${error.url} ${words}`,
		description: `${fix} (network error ${error.code})`,
		failure: { cause: 'temporarily-unavailable' },
	};
}

/** Why a reply is incomplete, and what to do, by how it ended. */
const INCOMPLETE_FIX: Record<IncompleteReplyError['cut'], string> = {
	finish:
		'Gateways end a reply this way when the model provider failed part way. The text received so far is in error_details.partial_content (with On Error: Continue). Run again; if it keeps happening with this model, report it to the service.',
	connection:
		'The service or a proxy between n8n and it closed the connection in the middle of the reply. The text received so far is in error_details.partial_content (with On Error: Continue). Run again; if it keeps happening with long replies, check proxies and load balancers for a time limit on connections.',
	silence: `The service stopped sending in the middle of the reply. The text received so far is in error_details.partial_content (with On Error: Continue). Raise ${optionPath('timeout')} if the model pauses that long while writing, or run again.`,
};

/**
 * An error n8n raised itself (an expression it could not resolve, a missing credential, its SSRF
 * protection): its own message and description; the error itself is shown as it is.
 */
function n8nProblem(error: BaseError): Problem {
	const parameter = (error as { context?: { parameter?: unknown } }).context?.parameter;
	const fallback =
		typeof parameter === 'string'
			? `n8n could not resolve the expression in the parameter "${parameter}": check it in the node.`
			: "This is an error n8n raised itself: check the node's settings and credential.";
	return {
		kind: 'input',
		message: error.message,
		description: error.description ?? fallback,
		raisedByN8n: error,
	};
}

/** Every model tried failed: each named with its failure; the last one's details and fix. */
function modelsProblem(error: ModelsFailed, context: ProblemContext): Problem {
	const problems = error.failures.map(({ model, error: failure }) => ({
		model,
		problem: describeProblem(failure, { ...context, model, streaming: false }),
	}));
	const last = problems[problems.length - 1].problem;
	const each = problems.map(({ model, problem }) => `"${model}": ${problem.message}`).join('; ');
	return {
		...last,
		message: `Each model failed (${optionPath('fallbackModels')}): ${each}`,
		description: `${last.description} Add another model to ${optionPath('fallbackModels')}, or fix what the last one failed on.`,
	};
}

function budgetProblem(error: TokenBudgetSpent): Problem {
	return {
		kind: 'api',
		message: `Not sent: this run of the node has spent its ${optionPath('tokenBudget')} of ${error.budget} tokens (the replies received counted ${error.spent} tokens)`,
		description: `Raise ${optionPath('tokenBudget')} above ${error.spent} (or set it to 0 for no budget) to send the items that were not sent; the items already answered keep their replies.`,
		failure: { cause: 'quota-exhausted' },
	};
}

/** The gateway's id of the failed request, which its support asks for. */
function requestIdOf(error: unknown): string | undefined {
	if (error instanceof ServiceError || error instanceof ReplyError) return error.requestId;
	if (error instanceof RateLimitWaitExceeded) return error.last.requestId;
	return undefined;
}

function classify(error: unknown, context: ProblemContext): Problem {
	if (error instanceof ModelsFailed) return modelsProblem(error, context);
	if (error instanceof TokenBudgetSpent) return budgetProblem(error);
	if (error instanceof InputError || error instanceof ConnectionError) {
		return { kind: 'input', message: error.message, description: error.fix };
	}
	if (error instanceof ServiceError) return serviceProblem(error, context);
	if (error instanceof RateLimitWaitExceeded) {
		const problem = serviceProblem(error.last, context);
		const seconds = Math.round(error.waitedMs / 100) / 10;
		const times = error.told === 1 ? 'once' : `${error.told} times`;
		const limit = `${optionPath('maxRateLimitWait')} allows (${duration(error.limitMs)})`;
		const why =
			error.waitedMs === 0
				? `the service asks to wait longer than ${limit}`
				: `the item waited ${seconds} s in all (told to wait ${times}), the most ${limit}`;
		return { ...problem, message: `${problem.message}: ${why}` };
	}
	if (error instanceof NetworkError) return networkProblem(error);
	if (error instanceof IncompleteReplyError) {
		return {
			kind: 'api',
			message: error.message,
			description: INCOMPLETE_FIX[error.cut],
			details: { partial_content: error.partialContent },
		};
	}
	if (error instanceof StructuredReplyError) {
		return {
			kind: 'api',
			message: error.message,
			description: `The model's last answer is in error_details.raw_content (with On Error: Continue). Raise ${optionPath('repairAttempts')}, make the schema simpler, or choose a model that supports structured output.`,
			details: { raw_content: error.rawContent, violations: error.problems },
		};
	}
	if (error instanceof StreamFormatError) {
		return {
			kind: 'api',
			message: error.message,
			description: `The service began a stream but its events were not chat-completion chunks. Run again; if it keeps happening with this model, report it to the service, or switch ${optionPath('stream')} off.`,
		};
	}
	if (error instanceof ReplyError) {
		return {
			kind: 'api',
			message: error.message,
			description:
				'The answer did not follow the chat-completions format. Check that the Base URL points to a chat-completions service.',
		};
	}
	if (error instanceof RefusedByN8n) {
		return { kind: 'input', message: error.message, description: error.description };
	}
	if (error instanceof BaseError) return n8nProblem(error);
	const message = error instanceof Error ? error.message : String(error);
	return { kind: 'api', message, description: 'Unexpected failure in the Chat Completion node.' };
}

function attempts(error: unknown): number {
	return error instanceof ServiceError || error instanceof NetworkError ? error.attempts : 1;
}

/** Turns any failure into the words the user sees, with the API key masked everywhere. */
export function describeProblem(error: unknown, context: ProblemContext): Problem {
	const problem = classify(error, context);
	const tries = attempts(error);
	if (tries > 1) problem.message = `${problem.message}, after ${tries} attempts`;
	const requestId = requestIdOf(error);
	if (requestId !== undefined) problem.description = `${problem.description} (request id: ${requestId})`;
	// A streaming client gets only the description: it carries the problem too.
	if (context.streaming) problem.description = `${problem.message}. ${problem.description}`;
	const key = context.apiKey ?? '';
	const details = problem.details;
	return {
		...problem,
		message: redactApiKey(problem.message, key),
		description: redactApiKey(problem.description, key),
		serviceMessage:
			problem.serviceMessage === undefined ? undefined : redactApiKey(problem.serviceMessage, key),
		type: problem.type === undefined ? undefined : redactApiKey(problem.type, key),
		code: problem.code === undefined ? undefined : redactApiKey(problem.code, key),
		details:
			details === undefined
				? undefined
				: Object.fromEntries(
						Object.entries(details).map(([name, text]) => [name, redactApiKey(text, key)]),
					),
	};
}
