/**
 * What can go wrong, as plain data with no n8n types: the bottom layer, imported by every other. Each class
 * is one or more kinds of the failure table (`table.ts`), which says what is retried, what falls back and
 * what the user reads.
 */

/** A problem with what the user entered: which field, what is wrong, and how to fix it. Nothing was sent. */
export class InputError extends Error {
	constructor(
		readonly field: string,
		problem: string,
		readonly fix: string,
		/**
		 * What a chat user may read when the problem is in what they handed over (a file), so that they can
		 * fix it themselves; without it they are told the assistant is not set up correctly.
		 */
		readonly chatWords?: string,
	) {
		super(`${field}: ${problem}`);
		this.name = 'InputError';
	}
}

/** The credential's data cannot make a request (no key, no http(s) Base URL). */
export class ConnectionError extends Error {
	constructor(
		message: string,
		readonly fix: string,
	) {
		super(message);
		this.name = 'ConnectionError';
	}
}

/** The request never got an HTTP answer: refused, reset, timed out, cancelled. */
export class NetworkError extends Error {
	constructor(
		readonly url: string,
		readonly code: string,
		/** The Timeout the request had, in ms, for the message of a timeout (ETIMEDOUT, ECONNABORTED). */
		readonly timeoutMs?: number,
	) {
		super(`No answer from ${url} (${code})`);
		this.name = 'NetworkError';
	}

	/** How many attempts were made in all, when retries were tried. */
	attempts = 1;
	/**
	 * Requests sent again at once on a new connection, not counted as attempts: a kept connection closed
	 * before it answered (see transport/dispatch-reply.ts).
	 */
	resent = 0;
	/** Whether the service at this origin answered an earlier request of this process. */
	answeredBefore = false;
}

/**
 * n8n itself refused to send the request and marked it as not worth retrying, e.g. its SSRF protection
 * blocked the service's address. Its words are kept (never the request options, which hold the key).
 */
export class RefusedByN8n extends Error {
	constructor(
		message: string,
		/** n8n's own explanation and what to do, e.g. which address the administrator must allow. */
		readonly description: string,
	) {
		super(message);
		this.name = 'RefusedByN8n';
	}
}

/** How an error body was written; the message quotes it accordingly. */
export type BodyKind = 'json' | 'html' | 'text' | 'empty';

/**
 * An endpoint besides chat whose failures read differently (rerank, each image and audio operation), as a
 * ServiceError names it: the operation that called it, where, and the words its failures need.
 */
export interface Endpoint {
	/** The operation that called it: `rerank`, `generate`, `speak`, ... */
	operation: string;
	/** The path called, under the Base URL: one operation may call several. */
	path: string;
	/** How the words name it (`speech`), and what a gateway without it does not offer (`speech`). */
	name: string;
	offers: string;
	/** What its model does, the kind of model it takes, and how to find one: for a model the endpoint refuses. */
	model?: { does: string; kind: string; fix: string };
	/** What it uploads (`images`, `recording`), for an upload the service refuses as too large. */
	uploads?: string;
	/** The text it sends and how to make it fit (`the text to speak`), for a text the service refuses as too long. */
	text?: { what: string; fix: string };
}

/** The service (or a gateway in front of it) answered with an error. */
export class ServiceError extends Error {
	constructor(
		readonly status: number,
		readonly serviceMessage: string,
		readonly errorType: string | undefined,
		readonly errorCode: string | undefined,
		readonly bodyKind: BodyKind,
		/** How long the service asks to wait before another try (retry-after-ms, Retry-After, a reset header), in ms. */
		readonly retryAfterMs?: number,
	) {
		super(serviceMessage);
		this.name = 'ServiceError';
		this.requestId = requestIdInMessage(serviceMessage);
	}

	/** How many attempts were made in all, when retries were tried. */
	attempts = 1;

	/** The gateway's id of the request (a header, or "(request id: ...)" in its message), for its support. */
	requestId?: string;

	/**
	 * The endpoint that answered, set where its failures read differently: rerank and the image and audio
	 * operations (a 404 there that names no model says the service has no such endpoint; a refusal there says the
	 * model cannot rerank, make images, transcribe or speak).
	 */
	endpoint?: Endpoint;

	/** For a download's failure: the URL downloaded, shown without its query (a signed URL's secret). */
	download?: string;
}

/** one-api and new-api end their own messages with `(request id: <id>)`. */
const ID_IN_MESSAGE = /\(request id: ([^)\s]+)\)/i;

/** The request id a gateway wrote into its message, if any. */
export function requestIdInMessage(message: string): string | undefined {
	return ID_IN_MESSAGE.exec(message)?.[1];
}

/** An item waited for the service's rate limit as long as Max Wait on Rate Limit allows, and still got a 429. */
export class RateLimitWaitExceeded extends Error {
	constructor(
		/** The last 429. */
		readonly last: ServiceError,
		/** How often the item was told to wait. */
		readonly told: number,
		/** How long it waited in all, in ms. */
		readonly waitedMs: number,
		/** The most it may wait (Options > Max Wait on Rate Limit), in ms. */
		readonly limitMs: number,
	) {
		super(last.serviceMessage);
		this.name = 'RateLimitWaitExceeded';
	}
}

/**
 * Not sent: the key (or the request's model) is paused by a 429 that another request got, for longer than the
 * item may wait (Options > Max Wait on Rate Limit).
 */
export class PausedNotSent extends Error {
	constructor(
		/** The 429 that asked for the pause. */
		readonly answer: ServiceError,
		/** When it was answered (epoch ms). */
		readonly answeredAt: number,
		/** How long the pause still holds, in ms. */
		readonly leftMs: number,
		/** The most the item may wait (Options > Max Wait on Rate Limit), in ms. */
		readonly limitMs: number,
	) {
		super(`Not sent: the key is paused for ${leftMs} ms more`);
		this.name = 'PausedNotSent';
	}
}

/** The service answered 2xx, but not with something this package can read. */
export class ReplyError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ReplyError';
	}

	/** The gateway's id of the request whose reply this is, when it sent one. */
	requestId?: string;
}

/** A stream whose events are not chat-completion chunks, or that ended with none that had a choice. */
export class StreamFormatError extends ReplyError {
	constructor(message: string) {
		super(message);
		this.name = 'StreamFormatError';
	}
}

/**
 * The reply may be cut: it ended without a finish reason (a stream closed by [DONE] or by the connection,
 * or a choice whose `finish_reason` is null). Gateways do this when the provider failed part way.
 */
export class IncompleteReplyError extends ReplyError {
	constructor(
		message: string,
		/** The reply text received before it ended. */
		readonly partialContent: string,
		/**
		 * How it ended: without a finish reason (`finish`), the connection broke while the reply streamed
		 * (`connection`), or nothing more came within Timeout (`silence`).
		 */
		readonly cut: 'finish' | 'connection' | 'silence' = 'finish',
	) {
		super(message);
		this.name = 'IncompleteReplyError';
	}
}

/** A reply that had to be JSON (Response Format) still was not valid after the repair attempts. */
export class StructuredReplyError extends ReplyError {
	constructor(
		message: string,
		/** The model's last answer, as it came. */
		readonly rawContent: string,
		/** What is wrong with it, in one line. */
		readonly problems: string,
	) {
		super(message);
		this.name = 'StructuredReplyError';
	}
}

/** What a Token Budget has counted: read when the failure is described, so the words give the run's final spend. */
export interface BudgetCount {
	readonly limit: number;
	readonly spent: number;
	/** The largest reply counted, in tokens. */
	readonly largest: number;
}

/**
 * Options > Token Budget is spent: the replies received by this run of the node counted `spent` tokens of
 * `limit`, so this request was not sent.
 */
export class TokenBudgetSpent extends Error {
	constructor(readonly budget: BudgetCount) {
		super(`The Token Budget of ${budget.limit} tokens is spent`);
		this.name = 'TokenBudgetSpent';
	}
}

/**
 * No endpoint that tells a key's balance answered with one: what each answered, `GET /key (OpenRouter): HTTP 404`;
 * `notFound` when one of them answered 404.
 */
export class BalanceUnavailableError extends Error {
	constructor(
		readonly answers: string[],
		readonly notFound: boolean,
	) {
		super('The service tells no balance for this key');
		this.name = 'BalanceUnavailableError';
	}
}

/**
 * Not sent: an earlier request of the run on the same key got an answer that holds for every request of the
 * key (a rejected key, an empty balance: its row's `lasting`); `failure` is that answer.
 */
export class KeyFailedEarlier extends Error {
	constructor(readonly failure: unknown) {
		super('An earlier request of this run failed for the key');
		this.name = 'KeyFailedEarlier';
	}
}

/** What one model of Fallback Models failed with. */
export interface ModelFailure {
	model: string;
	error: unknown;
}

/** The model and its Fallback Models each failed (the last with a failure no other model was tried after). */
export class ModelsFailed extends Error {
	constructor(readonly failures: ModelFailure[]) {
		super(`${failures.length} models failed`);
		this.name = 'ModelsFailed';
	}
}

/** The reply was cut at the token limit (finish_reason `length`): the Chat Model does not pass it on as a complete answer. */
export class CutReplyError extends ReplyError {
	constructor(
		/** The text received before the limit. */
		readonly partialContent: string,
		/** The reply's tokens, when the service counted them. */
		readonly completionTokens?: number,
	) {
		super('The reply was cut off at the token limit (finish_reason "length")');
		this.name = 'CutReplyError';
	}
}

/** A tool call whose arguments are not a JSON object: an agent would run the tool with nothing. */
export class ToolArgumentsError extends ReplyError {
	constructor(
		readonly toolName: string,
		readonly argumentsText: string,
	) {
		const shown = argumentsText.length > 200 ? `${argumentsText.slice(0, 200)}…` : argumentsText;
		super(
			`The model called the tool "${toolName}" with arguments that are not a JSON object: ${shown}`,
		);
		this.name = 'ToolArgumentsError';
	}
}

/** A tool call that names no tool the AI node bound: n8n's AI Agent would drop it without a word. */
export class UnknownToolError extends ReplyError {
	constructor(
		readonly toolName: string,
		readonly boundNames: readonly string[],
	) {
		super(
			`The model called the tool "${toolName}", which is not connected to the AI node (its tools: ${boundNames.map((name) => `"${name}"`).join(', ')})`,
		);
		this.name = 'UnknownToolError';
	}
}

/** The kinds of model the image and audio endpoints answer with, as a message names them. */
export type MediaModelKind = 'image' | 'transcription' | 'speech';

/**
 * A reply that does not fit what was sent: a count, index or number that does not fit (embeddings: one vector
 * per text, all of one length; rerank: one score per document ranked), or an image or audio reply without what
 * was asked for. Nothing of the reply is used.
 */
export abstract class MismatchedReplyError extends ReplyError {
	constructor(
		/** The model as the message names it: `embedding`, `rerank`, `image`, `transcription`, `speech`. */
		readonly modelKind: 'embedding' | 'rerank' | MediaModelKind,
		/** What the reply did, said of the model, e.g. `answered 2 vectors for 3 texts`. */
		readonly problem: string,
	) {
		super(`The ${modelKind} model ${problem}`);
	}
}

/** An embeddings reply that does not give each text sent exactly one vector of numbers, all of one length. */
export class EmbeddingsReplyError extends MismatchedReplyError {
	constructor(problem: string) {
		super('embedding', problem);
		this.name = 'EmbeddingsReplyError';
	}
}

/**
 * A rerank reply that cannot be trusted: no list of results, a result for a document not sent or for one
 * twice, a score that is missing or not a finite number. No order of it is used.
 */
export class RerankReplyError extends MismatchedReplyError {
	constructor(problem: string) {
		super('rerank', problem);
		this.name = 'RerankReplyError';
	}
}

/**
 * An image or audio reply that cannot be used: a 200 without any image, image data that is no image, a
 * transcription without text, a speech reply that is no audio. Nothing of it is used; `fix` says what may help.
 */
export class MediaReplyError extends MismatchedReplyError {
	constructor(
		modelKind: MediaModelKind,
		problem: string,
		readonly fix: string,
	) {
		super(modelKind, problem);
		this.name = 'MediaReplyError';
	}
}

/**
 * A video job that did not give a video: it ended failed, cancelled or expired, its submit came back without an
 * id or without an answer (a job may exist and be billed), it is not finished when downloaded, or what came
 * back is no video. `problem` and `fix` are the node's words; `jobId` names the job when there is one.
 */
export class VideoJobError extends Error {
	constructor(
		readonly problem: string,
		readonly fix: string,
		readonly jobId?: string,
	) {
		super(problem);
		this.name = 'VideoJobError';
	}
}
