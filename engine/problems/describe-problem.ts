import { chatWords } from './chat-words';
import type { Problem, ProblemContext } from './problem';
import { hasVersionSegment, redactApiKey, redactHeaderValues } from '../connection';
import {
	KeyFailedEarlier,
	ModelsFailed,
	NetworkError,
	RateLimitWaitExceeded,
	ReplyError,
	ServiceError,
} from '../failures/errors';
import type { WordsContext } from '../failures/kind';
import { classify } from '../failures/table';
import type { OptionName } from '../options/table';
import { optionPath } from '../options/table';

/** The service's error behind a failure, when the service answered one. */
function serviceErrorOf(error: unknown): ServiceError | undefined {
	if (error instanceof ServiceError) return error;
	if (error instanceof RateLimitWaitExceeded) return error.last;
	return undefined;
}

/** The gateway's id of the failed request, which its support asks for. */
function requestIdOf(error: unknown): string | undefined {
	if (error instanceof ReplyError) return error.requestId;
	return serviceErrorOf(error)?.requestId;
}

function attempts(error: unknown): number {
	return error instanceof ServiceError || error instanceof NetworkError ? error.attempts : 1;
}

/**
 * The failure whose answer another one stands on: the last model's of Fallback Models (its status, the
 * service's words, its details are the ones to act on), or the earlier request's that kept this one unsent.
 */
function answerBehind(
	error: unknown,
	model: string | undefined,
): { error: unknown; model?: string } | undefined {
	if (error instanceof ModelsFailed) return error.failures[error.failures.length - 1];
	if (error instanceof KeyFailedEarlier) return { error: error.failure, model };
	return undefined;
}

/** A failure in the words its row of the failure table gives, with what the service answered. */
function problemOf(error: unknown, context: ProblemContext): Problem {
	const row = classify(error);
	const words: WordsContext = {
		...context,
		versioned: !context.baseUrl || hasVersionSegment(context.baseUrl),
		option: (name) => optionPath(name as OptionName),
		messageOf: (failure, model) => problemOf(failure, { ...context, model }).message,
		descriptionOf: (failure, model) => problemOf(failure, { ...context, model }).description,
	};
	const { message, fix, failure, details, raisedByN8n, chatWords } = row.words(error, words);
	const problem: Problem = {
		kind: row.side,
		message,
		description: fix,
		failure,
		details,
		raisedByN8n,
		...(chatWords === undefined ? {} : { chatWords }),
	};
	const answered = serviceErrorOf(error);
	if (answered !== undefined) {
		Object.assign(problem, {
			httpCode: answered.status,
			type: answered.errorType,
			code: answered.errorCode,
			serviceMessage: answered.serviceMessage,
		});
	}
	const behind = answerBehind(error, context.model);
	if (behind !== undefined) {
		const {
			httpCode,
			type,
			code,
			serviceMessage,
			failure: cause,
			details: more,
		} = problemOf(behind.error, { ...context, model: behind.model });
		return { ...problem, httpCode, type, code, serviceMessage, failure: cause, details: more };
	}
	const tries = attempts(error);
	if (tries > 1) problem.message = `${problem.message}, after ${tries} attempts`;
	const resent = error instanceof NetworkError ? error.resent : 0;
	if (resent > 0) {
		problem.message = `${problem.message} (${tries + resent} requests in all: ${resent === 1 ? 'one was' : `${resent} were`} sent again at once on a new connection, as a kept connection closed without answering)`;
	}
	// Once: one-api and new-api write it into their message already, which the description quotes.
	const requestId = requestIdOf(error);
	const idWords = `(request id: ${requestId})`;
	if (requestId !== undefined && !problem.description.includes(idWords))
		problem.description = `${problem.description} ${idWords}`;
	return problem;
}

/** Turns any failure into the words the user sees, with the API key and Extra Headers' values masked everywhere. */
export function describeProblem(error: unknown, context: ProblemContext): Problem {
	const problem = problemOf(error, context);
	// A streaming client (a public chat, maybe) gets only the description: what happened in a chat user's
	// words. The message keeps the whole problem and the fix for the execution.
	if (context.streaming) {
		problem.message = `${problem.message.replace(/\.$/, '')}. ${problem.description}`;
		problem.description = chatWords(problem);
	}
	const hide = (text: string) =>
		redactHeaderValues(redactApiKey(text, context.apiKey ?? ''), context.extraHeaders);
	const mask = (text: string | undefined) => (text === undefined ? undefined : hide(text));
	return {
		...problem,
		message: hide(problem.message),
		description: hide(problem.description),
		serviceMessage: mask(problem.serviceMessage),
		type: mask(problem.type),
		code: mask(problem.code),
		details:
			problem.details === undefined
				? undefined
				: Object.fromEntries(
						Object.entries(problem.details).map(([name, text]) => [name, hide(text)]),
					),
	};
}
