import type { BaseError, Failure } from 'n8n-workflow';

import type { NamedWindow } from './service-signs';

/**
 * A row of the failure table: how one kind of failure is recognised, what the engine does about it
 * (retry, Auto's back-off, Fallback Models) and the words the user reads. Each kind is declared once
 * (`kinds/*.ts`), and `classify` (`table.ts`) finds the row of any failure.
 */

/**
 * What another attempt at the same request may do: never; again after a back-off (or what Retry-After
 * asks); wait out a rate limit (no retry spent, Max Wait on Rate Limit); back off only when Retry Timeouts
 * is on.
 */
export type RetryRule = 'never' | 'back-off' | 'wait' | 'back-off-if-timeouts-retried';

/** How a node names what the words point at: each node passes its own. */
export interface NodeWords {
	/** The node as users know it, e.g. `the Chat Completion node`. */
	node: string;
	/** The node's options (the Chat Model has no Concurrency or Stream: its AI node decides). */
	options: readonly string[];
	/** Whether a failed item keeps what was received in `error_details` (On Error: Continue). */
	errorDetails: boolean;
	/**
	 * The fix when a thinking model wants its reasoning back with the message that made tool calls (none for a
	 * node that sends no conversation: the service's words stand alone).
	 */
	reasoningMissing?: string;
	/** The fix when a service takes no reasoning on the messages sent to it (none for a node that sends no conversation). */
	reasoningRefused?: string;
}

/** What words are made with: the node's words, the request's model and Base URL, option labels. */
export interface WordsContext {
	words: NodeWords;
	baseUrl?: string;
	/** Whether the Base URL ends with a version segment such as /v1 (a 404 without one says so). */
	versioned: boolean;
	model?: string;
	/** Options > Maximum Tokens of the request, when set. */
	maxTokens?: number;
	/** How a message names an option, e.g. `Options > Timeout (Ms)`. */
	option(name: string): string;
	/** The message another failure gets (for a failure that holds others: each model of Fallback Models). */
	messageOf(error: unknown, model: string): string;
	/** The description another failure gets: the service's words, the fix, the request id. */
	descriptionOf(error: unknown, model: string): string;
}

/** What the user reads of a failure: what happened, and the fix (with the service's words where it answered). */
export interface Words {
	message: string;
	fix: string;
	failure?: Failure;
	/** More for `error_details` (snake_case keys), e.g. the text received before a reply broke off. */
	details?: Record<string, string>;
	/** An error n8n raised itself (an expression it could not resolve, a missing credential): shown as it is. */
	raisedByN8n?: BaseError;
	/** What a chat user may read, when the problem is in what they handed over (see `InputError`). */
	chatWords?: string;
}

/**
 * What a failure tells every request on the key (`key/`): the cap on requests in flight the service named,
 * the window it named, or the wait it asked (for the request's model alone when the answer names it,
 * e.g. OpenAI's "Rate limit reached for gpt-4o in organization ...", else for the whole key).
 */
export type KeySign =
	| { cap: number }
	| { window: NamedWindow }
	| { pauseMs: number; model?: string };

export interface FailureKind<E = unknown> {
	name: string;
	/** `input`: the node or credential must change, nothing was sent; `api`: it failed at or on the way to the service. */
	side: 'input' | 'api';
	retry: RetryRule;
	/** The service says it is overloaded: Auto sends fewer requests at once. */
	overload: boolean;
	/** Another model of Fallback Models may succeed where this one failed. */
	anotherModel: boolean;
	/**
	 * The failure stays for the rest of the run: with the model (`model`: with a fallback left, it is not asked
	 * again), or with the key (`key`: a rejected key, an empty balance; no request of the run is sent after it).
	 */
	lasting?: 'model' | 'key';
	/** The run kept the request from being sent: its words stand alone, whatever models failed before it. */
	notSent?: boolean;
	/** What the failure tells every request on the key, read where the key learns it (`Run.send`); `model`, the request's. */
	keySign?: (error: E, model: string | undefined) => KeySign | undefined;
	/** How the lists of what falls back, and what never does, name this kind (none: not listed). */
	listed?: string;
	matches(error: unknown): error is E;
	words(error: E, context: WordsContext): Words;
}

/** A row, typed by the failure it matches. */
export function kind<E>(row: FailureKind<E>): FailureKind {
	return row as FailureKind;
}

/** `500 ms`, `90000 ms (1.5 min)`. */
export function duration(ms: number): string {
	if (ms < 60_000) return `${ms} ms`;
	return `${ms} ms (${Math.round(ms / 6_000) / 10} min)`;
}
