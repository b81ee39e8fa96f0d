import type { BaseError, Failure } from 'n8n-workflow';

import type { NodeWords } from '../failures/kind';

/** What went wrong, in the words the user sees; built by `describeProblem`, shown by `node-error`. */
export interface Problem {
	/** `input`: fix the node or credential, nothing was sent. `api`: the request failed at or on the way to the service. */
	kind: 'input' | 'api';
	message: string;
	description: string;
	httpCode?: number;
	type?: string;
	code?: string;
	serviceMessage?: string;
	failure?: Failure;
	/** More for `error_details` (snake_case keys), e.g. the text received before a reply broke off. */
	details?: Record<string, string>;
	/** An error n8n raised itself (an expression it could not resolve, a missing credential): shown as it is. */
	raisedByN8n?: BaseError;
	/** What a chat user may read, when the problem is in what they handed over (a file that is not a PDF). */
	chatWords?: string;
}

export interface ProblemContext {
	/** How the node names what the words point at (its name, its options, where a failed item's details go). */
	words: NodeWords;
	baseUrl?: string;
	model?: string;
	apiKey?: string;
	/** The credential's Extra Headers: their values are hidden like the key. */
	extraHeaders?: Record<string, string>;
	/** Options > Maximum Tokens of the request, when set. */
	maxTokens?: number;
	/**
	 * n8n streams the workflow's response: it passes a streaming client only an error's description, so
	 * the description is what a chat user may read (`chatWords`) and the message holds the rest.
	 */
	streaming?: boolean;
}
