import type { Endpoint } from '../errors';
import { PausedNotSent, RateLimitWaitExceeded, ServiceError } from '../errors';
import type { FailureKind, KeySign, Words, WordsContext } from '../kind';
import { duration, kind } from '../kind';
import type { NamedWindow } from '../service-signs';
import {
	inFlightCap,
	isModelMissing,
	isModelUnavailable,
	isNoChannel,
	isOutOfBalance,
	lacksCapability,
	namedHeader,
	namedWindow,
	namesModel,
	refusesFiles,
	refusesPromptCaching,
	refusedPort,
	refusesReasoning,
	unreachedUpstream,
	wantsReasoningBack,
} from '../service-signs';

/** The service (or a gateway in front of it) answered with an error: its kinds, by status, code and words. */

/** What the service's answer said: `"its words"`, `an HTML page: "its title"` or `an empty body`. */
function answerWords(error: ServiceError): string {
	if (error.bodyKind === 'html') return `an HTML page: "${error.serviceMessage}"`;
	return error.bodyKind === 'empty' ? 'an empty body' : `"${error.serviceMessage}"`;
}

/** The service's answer as the description quotes it: its words and the status, type and code. */
export function quoted(error: ServiceError): string {
	const details = [`HTTP ${error.status}`];
	if (error.errorType) details.push(`type ${error.errorType}`);
	if (error.errorCode) details.push(`code ${error.errorCode}`);
	return `The service answered ${answerWords(error)} (${details.join(', ')}).`;
}

/** A row for service errors that pass `test`; its words get the service's answer quoted before the fix. */
export function service(
	row: Omit<FailureKind<ServiceError>, 'matches' | 'side' | 'overload' | 'retry'> &
		Partial<Pick<FailureKind, 'overload' | 'retry'>> & { test: (error: ServiceError) => boolean },
): FailureKind {
	const { test, words, ...traits } = row;
	return kind<ServiceError>({
		side: 'api',
		retry: 'never',
		overload: false,
		...traits,
		matches: (error): error is ServiceError => error instanceof ServiceError && test(error),
		words: (error, context) => {
			const said = words(error, context);
			return { ...said, fix: `${quoted(error)} ${said.fix}` };
		},
	});
}

/** A 404 under a Base URL without its version segment: the segment is what is missing. */
export function missingVersion(baseUrl: string): Words {
	return {
		message: `The Base URL "${baseUrl}" lacks the version segment /v1, so the service answered 404`,
		fix: 'Open the credential and add /v1 to the Base URL, e.g. https://api.example.com/v1.',
		failure: { cause: 'configuration-invalid' },
	};
}

/** What a model an endpoint refuses cannot do, the kind of model it takes, and how to find one. */
type ModelWords = NonNullable<Endpoint['model']>;

/**
 * A row for a model asked at an endpoint for what it cannot do (a chat model asked to embed or to rerank):
 * `Model "x" cannot <does>: it is not <kind>`, and the fix; `words` the same for every error, or read from the
 * error (an image or audio operation's `endpoint.model`). Never retried; another model is the user's choice.
 */
export function modelCannot(
	name: string,
	test: (error: ServiceError) => boolean,
	words: ModelWords | ((error: ServiceError) => ModelWords),
): FailureKind {
	return service({
		name,
		anotherModel: false,
		test,
		words: (error, { model }) => {
			const { does, kind, fix } = typeof words === 'function' ? words(error) : words;
			return {
				message: `${model ? `Model "${model}"` : 'The model'} cannot ${does}: it is not ${kind}`,
				fix,
				failure: { cause: 'configuration-invalid' },
			};
		},
	});
}

/** What a header the service named is set to, for the example of the fix (Portkey's, for an OpenAI-shaped upstream). */
const HEADER_EXAMPLES: Record<string, string> = {
	'x-portkey-provider': 'openai',
	'x-portkey-custom-host': 'https://api.example.com/v1',
};

const modelName = ({ model }: WordsContext) => (model ? `"${model}"` : 'the requested model');
const status =
	(...statuses: number[]) =>
	(error: ServiceError) =>
		statuses.includes(error.status);

/**
 * `a minute`, `per 2 minutes`, `per 3 s`, `per 1.5 s`: to a tenth, as a service's window in minutes with few
 * digits comes out (new-api's 0.0167 minutes is 1.002 s: `per 1 s`).
 */
function per(ms: number): string {
	const tenths = (value: number) => Math.round(value * 10) / 10;
	if (ms < 60_000) return `per ${tenths(ms / 1000)} s`;
	const minutes = tenths(ms / 60_000);
	return minutes === 1 ? 'a minute' : `per ${minutes} minutes`;
}

/** What a window named by a 429 says: "The key's limit of 60 requests a minute is used up (failed requests count too)". */
export function windowWords({ requests, ms, countsFailures }: NamedWindow): string {
	const failures = countsFailures ? ' (failed requests count too)' : '';
	return `The key's limit of ${requests} requests ${per(ms)} is used up${failures}`;
}

/** What the node does after a 429 that named a cap on requests in flight. */
export function inFlightCapWords(cap: number, sending: number): string {
	return `The service allows ${cap} requests in flight for this key: the node now sends ${sending} at a time`;
}

/** A 429 that asks to wait (a cap on requests in flight, a window, or the rate limit): its words, also for an item that waited as long as it may. */
function rateLimitWords(error: ServiceError, context: WordsContext): Words {
	const wait =
		error.retryAfterMs === undefined
			? ''
			: ` The service asks to wait ${error.retryAfterMs / 1000} s.`;
	const fewer = context.words.options.includes('concurrency')
		? `Lower ${context.option('concurrency')} (or run fewer executions on this key at once)`
		: 'Run fewer executions on this key at once';
	const cap = inFlightCap(error);
	const window = namedWindow(error);
	return {
		message:
			cap !== undefined
				? `Too many requests in flight: the service allows ${cap} at a time for this key`
				: window !== undefined
					? windowWords(window)
					: "Too many requests: the service's rate limit for this key was reached",
		fix: `${fewer}, raise ${context.option('maxRateLimitWait')}, or ask the gateway's admin for a higher limit.${wait}`,
		failure: { cause: 'rate-limited', retryAfterMs: error.retryAfterMs },
	};
}

const isRateLimit = (error: ServiceError) => error.status === 429 && !isOutOfBalance(error);

/** The wait a service asked (Retry-After, retry-after-ms, a reset): for the model the answer names, else the key. */
function askedPause(error: ServiceError, model: string | undefined): KeySign | undefined {
	if (error.retryAfterMs === undefined) return undefined;
	return namesModel(error, model)
		? { pauseMs: error.retryAfterMs, model }
		: { pauseMs: error.retryAfterMs };
}

export const SERVICE_KINDS: FailureKind[] = [
	service({
		name: 'model does not exist',
		anotherModel: true,
		lasting: 'model',
		listed: 'the model does not exist (404)',
		test: isModelMissing,
		words: (_error, context) => ({
			message: `Model ${modelName(context)} does not exist on this service`,
			fix: 'Check the model ID for typos, or pick the model from the list, which shows exactly the models this key may call.',
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	service({
		name: 'model not available to the key',
		anotherModel: true,
		lasting: 'model',
		listed: "the key's group cannot reach it (403, model_not_found, a gateway's no channel)",
		test: isModelUnavailable,
		words: (error, context) => ({
			message: isNoChannel(error)
				? `Model ${modelName(context)} is not available to this API key's group: the gateway has no channel for it`
				: `Model ${modelName(context)} is not available to this API key`,
			fix: "Pick the model from the list, which shows exactly the models this key's token group may call, or ask the account holder to add it to the key's group.",
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	service({
		name: 'out of balance',
		anotherModel: false,
		lasting: 'key',
		listed: 'the balance (402, quota codes)',
		test: isOutOfBalance,
		words: () => ({
			message: 'The account behind this API key has run out of balance',
			fix: "Top up the balance in the service console (or raise the key's budget), then run again. Retrying without that does not help.",
			failure: { cause: 'quota-exhausted' },
		}),
	}),
	service({
		name: 'key rejected',
		anotherModel: false,
		lasting: 'key',
		listed: 'a rejected key (401)',
		test: status(401),
		words: () => ({
			message: 'The service rejected the API key',
			fix: 'Open the credential and paste the key again from the service console: it starts with sk-. If the key has expired or was deleted, create a new one.',
			failure: { cause: 'credential-invalid' },
		}),
	}),
	service({
		name: 'forbidden',
		anotherModel: true,
		test: status(403),
		words: (_error, { model }) => ({
			message: `This API key is not allowed to make this request${model ? ` (model "${model}")` : ''}`,
			fix: "The key's token group decides what it may call: pick a model from the list, or ask the account holder for access.",
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	service({
		name: 'model cannot read files',
		anotherModel: true,
		listed: 'it cannot read the files sent (PDFs)',
		test: refusesFiles,
		words: (error) => ({
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: 'This model cannot read PDFs or other files: choose one that can (or add it to Fallback Models), or a gateway that parses PDFs for models that cannot; or turn the file into text first, e.g. with an Extract from File node.',
		}),
	}),
	service({
		name: 'model lacks a capability',
		anotherModel: true,
		listed: 'it lacks a capability the request needs (images, tools, JSON schema)',
		test: lacksCapability,
		words: (error) => ({
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: 'The model cannot take part of this request: choose a model that can (or add one to Fallback Models), or leave that part out.',
		}),
	}),
	service({
		name: 'no such endpoint',
		anotherModel: false,
		listed: 'a Base URL that has no such endpoint (404)',
		test: status(404),
		words: (_error, { baseUrl = '', versioned }) =>
			!versioned
				? missingVersion(baseUrl)
				: {
						message: `The service has no such endpoint under "${baseUrl}" (404)`,
						fix: 'Check the Base URL in the credential: it is the address that ends with the version segment, e.g. https://api.example.com/v1.',
						failure: { cause: 'configuration-invalid' },
					},
	}),
	service({
		name: 'reasoning wanted back',
		anotherModel: false,
		test: wantsReasoningBack,
		words: (error, { words }) => ({
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: words.reasoningMissing ?? '',
		}),
	}),
	service({
		name: 'reasoning refused',
		anotherModel: false,
		test: refusesReasoning,
		words: (error, { words }) => ({
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: words.reasoningRefused ?? '',
		}),
	}),
	service({
		name: 'prompt caching refused',
		anotherModel: false,
		test: refusesPromptCaching,
		words: (error, context) => ({
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: `This service or model takes no prompt caching: set ${context.option('promptCaching')} to Off (or remove cache_control from Extra Body or the messages).`,
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	service({
		name: 'header wanted',
		anotherModel: false,
		test: (error) => namedHeader(error) !== undefined,
		words: (error) => {
			const { name, wanted } = namedHeader(error)!;
			const json = `{${JSON.stringify(name)}: ${JSON.stringify(HEADER_EXAMPLES[name.toLowerCase()] ?? '...')}}`;
			return {
				message: `The service rejected the request: ${error.serviceMessage}`,
				fix: wanted
					? `The service wants the header ${name}: add it to the credential's Extra Headers, as JSON: ${json}, with the value the service's documentation gives.`
					: `The header ${name} has a value the service does not take: correct it in the credential's Extra Headers, as JSON: ${json}.`,
				failure: { cause: 'configuration-invalid' },
			};
		},
	}),
	service({
		name: 'bad request',
		anotherModel: false,
		listed: 'a request wrong in itself (400)',
		test: status(400),
		words: (error) => ({
			message: `The service rejected the request: ${error.serviceMessage}`,
			fix: "The service's message names the problem; correct that field in the node (or in Extra Body) and run again.",
		}),
	}),
	service({
		name: 'in-flight cap reached',
		retry: 'wait',
		anotherModel: true,
		test: (error) => isRateLimit(error) && inFlightCap(error) !== undefined,
		keySign: (error) => ({ cap: inFlightCap(error)! }),
		words: rateLimitWords,
	}),
	service({
		name: 'window used up',
		retry: 'wait',
		anotherModel: true,
		test: (error) => isRateLimit(error) && namedWindow(error) !== undefined,
		keySign: (error) => ({ window: namedWindow(error)! }),
		words: rateLimitWords,
	}),
	service({
		name: 'rate limited',
		retry: 'wait',
		overload: true,
		anotherModel: true,
		test: isRateLimit,
		keySign: askedPause,
		words: rateLimitWords,
	}),
	service({
		name: 'error inside a 2xx',
		anotherModel: true,
		listed: 'an error inside a 200',
		test: (error) => error.status >= 200 && error.status < 300,
		words: (error) => ({
			message: `The service reported an error inside a successful (${error.status}) response: ${error.serviceMessage}`,
			fix: 'Gateways pass on failures of the model provider this way; run again later or choose another model.',
			failure: { cause: 'temporarily-unavailable' },
		}),
	}),
	service({
		name: 'port refused',
		anotherModel: false,
		test: refusedPort,
		words: () => ({
			message:
				'The gateway answered, but would not connect to the service behind it: the port in the address it was given is one it refuses (bad port)',
			fix: "Run the service behind the gateway on another port (fetch refuses a few, such as 6000, 6665-6669 and 10080) and set the gateway to that address (Portkey: x-portkey-custom-host in the credential's Extra Headers).",
			failure: { cause: 'configuration-invalid' },
		}),
	}),
	service({
		name: 'upstream unreached',
		retry: 'back-off',
		anotherModel: true,
		test: (error) => unreachedUpstream(error) !== undefined,
		keySign: askedPause,
		words: (error) => {
			const { code, address } = unreachedUpstream(error)!;
			const where = address === undefined ? '' : ` at ${address}`;
			return {
				message: `The gateway answered, but could not reach the service behind it${where} (${code})`,
				fix: `Check that the service behind the gateway runs${where} and that the gateway is set to its address (Portkey: x-portkey-custom-host in the credential's Extra Headers), then run again.`,
				failure: { cause: 'temporarily-unavailable' },
			};
		},
	}),
	service({
		name: 'overloaded',
		retry: 'back-off',
		overload: true,
		anotherModel: true,
		test: status(503),
		keySign: askedPause,
		words: unavailableWords,
	}),
	service({
		name: 'gateway unavailable',
		retry: 'back-off',
		anotherModel: true,
		test: status(502, 504),
		keySign: askedPause,
		words: unavailableWords,
	}),
	service({
		name: 'server failure',
		retry: 'back-off',
		anotherModel: true,
		listed: 'a server error after the retries (5xx)',
		test: (error) => error.status >= 500,
		keySign: askedPause,
		words: (error) => ({
			message: `The service failed while answering (${error.status})`,
			fix: 'This is a problem on the service side: run again later. If it persists, report it to the service with the message quoted here.',
			failure: { cause: 'temporarily-unavailable' },
		}),
	}),
	service({
		name: 'other status',
		anotherModel: false,
		test: () => true,
		words: (error) => ({
			message: `The service answered with HTTP ${error.status}`,
			fix: "The service's message quoted here says why.",
		}),
	}),
	kind<RateLimitWaitExceeded>({
		name: 'rate-limit wait ran out',
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel: true,
		listed: "the rate limit's wait ran out",
		matches: (error): error is RateLimitWaitExceeded => error instanceof RateLimitWaitExceeded,
		words: (error, context) => {
			const said = rateLimitWords(error.last, context);
			const seconds = Math.round(error.waitedMs / 100) / 10;
			const times = error.told === 1 ? 'once' : `${error.told} times`;
			const limit = `${context.option('maxRateLimitWait')} allows (${duration(error.limitMs)})`;
			const why =
				error.waitedMs === 0
					? `the service asks to wait longer than ${limit}`
					: `the item waited ${seconds} s in all (told to wait ${times}), the most ${limit}`;
			return {
				...said,
				message: `${said.message}: ${why}`,
				fix: `${quoted(error.last)} ${said.fix}`,
			};
		},
	}),
	kind<PausedNotSent>({
		name: 'paused, not sent',
		side: 'api',
		retry: 'never',
		overload: false,
		anotherModel: true,
		matches: (error): error is PausedNotSent => error instanceof PausedNotSent,
		words: ({ answer, answeredAt, leftMs, limitMs }, context) => {
			const seconds = Math.ceil(leftMs / 1000);
			const at = `${new Date(answeredAt).toISOString().slice(11, 19)} UTC`;
			const paused = namesModel(answer, context.model)
				? `requests for model "${context.model}" on this key are paused`
				: 'the key is paused';
			const said = answer.bodyKind === 'json' || answer.bodyKind === 'text' ? '' : ' and';
			const option = context.option('maxRateLimitWait');
			const allows =
				limitMs === 0
					? `${option} is 0, which does not allow waiting`
					: `${option} (${duration(limitMs)}) does not allow waiting that long`;
			return {
				message: `Not sent: ${paused} for ${seconds} s more, since the service answered another request at ${at} with ${answer.status}${said} ${answerWords(answer)}`,
				fix: `${allows}: raise it above ${seconds * 1000} ms to let the item wait for the pause, or run it again once the pause is over.`,
				failure: { cause: 'rate-limited', retryAfterMs: leftMs },
				details: { not_sent: `paused by the ${answer.status} another request got at ${at}` },
			};
		},
	}),
];

function unavailableWords(error: ServiceError): Words {
	return {
		message: `The service or a gateway in front of it is unavailable (${error.status})`,
		fix: 'This is a problem on the service side: run again later.',
		failure: { cause: 'temporarily-unavailable' },
	};
}
